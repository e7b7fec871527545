type Entry<V> = { value: V; storedAt: number };

export type BoundedCacheOptions = {
  /** Past this many entries the oldest kept goes first, so endless or hostile keys cannot make it grow. */
  maxEntries: number;
  /** The clock `maxAgeMs` is measured on, in milliseconds (`Date.now`; tests pass their own). */
  now?: () => number;
};

/**
 * Values computed once per key and kept, the one cache of the code base: at most `maxEntries` of
 * them, each for at most the `maxAgeMs` its reader asks for, all until `clear()` (the site's own
 * caches, on every change the outbox reports). A promise is kept as it is, so callers asking together
 * share one computation, and is dropped if it fails, so the next caller tries again.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor({ maxEntries, now = Date.now }: BoundedCacheOptions) {
    this.maxEntries = maxEntries;
    this.now = now;
  }

  get<T extends V>(key: K, compute: (key: K) => T, maxAgeMs = Infinity): T {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      if (maxAgeMs === Infinity || this.now() - kept.storedAt <= maxAgeMs) return kept.value as T;
      this.entries.delete(key);
    }
    const value = compute(key);
    const entry: Entry<V> = { value, storedAt: this.now() };
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, entry);
    if (value instanceof Promise) {
      value.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    return value;
  }

  /** A computation in flight is dropped too: nothing computed before the clear is kept after it. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
