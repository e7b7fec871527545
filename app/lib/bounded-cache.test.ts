import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache";

describe("a bounded cache", () => {
  it("computes each key once, undefined answers included", () => {
    const computed: string[] = [];
    const cache = new BoundedCache<string, number | undefined>({ maxEntries: 10 });
    const answer = (key: string) => cache.get(key, (k) => (computed.push(k), k === "none" ? undefined : k.length));
    expect([answer("ab"), answer("none"), answer("ab"), answer("none")]).toEqual([2, undefined, 2, undefined]);
    expect(computed).toEqual(["ab", "none"]);
  });

  it("drops the oldest kept past its bound, and answers right after", () => {
    const computed: number[] = [];
    const cache = new BoundedCache<number, number>({ maxEntries: 3 });
    for (const key of [1, 2, 3, 4]) expect(cache.get(key, (k) => (computed.push(k), k * 2))).toBe(key * 2);
    expect(cache.size).toBe(3);
    for (const key of [2, 3, 4, 1]) expect(cache.get(key, (k) => (computed.push(k), k * 2))).toBe(key * 2);
    expect(computed).toEqual([1, 2, 3, 4, 1]);
  });

  it("computes again past the age its reader gives", () => {
    let now = 0;
    let reads = 0;
    const cache = new BoundedCache<string, number>({ maxEntries: 10, now: () => now });
    const read = () => cache.get("most-read", () => ++reads, 30_000);
    expect(read()).toBe(1);
    now = 30_000;
    expect(read()).toBe(1);
    now = 30_001;
    expect(read()).toBe(2);
  });

  it("shares one computation among callers asking together, and forgets a failed one", async () => {
    const cache = new BoundedCache<string, Promise<unknown>>({ maxEntries: 10 });
    let reads = 0;
    const read = async () => ++reads;
    const [a, b] = await Promise.all([cache.get("k", read), cache.get("k", read)]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    await expect(cache.get("bad", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("bad", async () => "up")).toBe("up");
  });

  it("keeps nothing computed before a clear, a computation in flight included", async () => {
    const cache = new BoundedCache<string, Promise<string>>({ maxEntries: 10 });
    let finish!: (value: string) => void;
    const before = cache.get("k", () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish("before the change");
    await before;
    expect(await cache.get("k", async () => "after the change")).toBe("after the change");
  });
});
