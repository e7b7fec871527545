import { describe, expect, it } from "vitest";
import { BoundedMemo } from "./bounded-memo";

describe("a bounded memo", () => {
  it("computes each key once, undefined answers included", () => {
    const computed: string[] = [];
    const memo = new BoundedMemo<string, number | undefined>(10);
    const answer = (key: string) => memo.get(key, (k) => (computed.push(k), k === "none" ? undefined : k.length));
    expect([answer("ab"), answer("none"), answer("ab"), answer("none")]).toEqual([2, undefined, 2, undefined]);
    expect(computed).toEqual(["ab", "none"]);
  });

  it("starts over past its bound, and answers right after", () => {
    let computations = 0;
    const memo = new BoundedMemo<number, number>(5);
    for (let round = 0; round < 2; round++) for (let i = 0; i < 8; i++) expect(memo.get(i, (k) => (computations++, k * 2))).toBe(i * 2);
    // Eight keys never fit in five: the second round computes again (an unbounded memo would not).
    expect(computations).toBeGreaterThan(8);
  });
});
