/**
 * Answers computed once per key and kept, at most `max` of them: past that, what is kept starts over,
 * so endless or hostile keys cannot make it grow. For pure answers that are cheap to keep.
 */
export class BoundedMemo<K, V> {
  private readonly kept = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K, compute: (key: K) => V): V {
    const known = this.kept.get(key);
    if (known !== undefined || this.kept.has(key)) return known as V;
    if (this.kept.size >= this.max) this.kept.clear();
    const value = compute(key);
    this.kept.set(key, value);
    return value;
  }
}
