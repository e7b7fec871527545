const MAX_ENTRIES = 200;

type Entry = { value: Promise<unknown>; storedAt: number };

/**
 * Reads every reader page repeats (the breaking ticker, the sidebars, picks), kept in process memory
 * until the outbox follower hears of any change (`clear`), or for `maxAgeMs` for what changes without
 * an outbox event (visit counts). Readers asking together share one read. See docs/decisions/019.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  get<T>(key: string, read: () => Promise<T>, maxAgeMs = Infinity, now = Date.now()): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && now - entry.storedAt <= maxAgeMs) return entry.value as Promise<T>;
    const value = read();
    const fresh: Entry = { value, storedAt: now };
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, fresh);
    // A failed read is not kept: the next reader tries again.
    value.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return value;
  }

  /** Every change readers can see: a read in flight is dropped too, so nothing read before the change is kept. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
