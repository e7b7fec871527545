/** Reading one page of results across the disjoint tiers of `resultTiers`, on either engine. */

/** How an engine reads one tier: a page of its ids, newest first, and how many it holds. */
export type TierReader<T> = {
  ids: (tier: T, offset: number, limit: number) => Promise<string[]>;
  count: (tier: T) => Promise<number>;
};

/** Ids of one page of matches, tier after tier, each tier newest first. */
export async function readPageAcrossTiers<T>(
  tiers: T[],
  reader: TierReader<T>,
  page: { offset: number; limit: number },
): Promise<string[]> {
  const ids: string[] = [];
  let offset = page.offset;
  for (const tier of tiers) {
    const found = await reader.ids(tier, offset, page.limit - ids.length);
    ids.push(...found);
    if (ids.length === page.limit) break;
    // This tier ran out: it used up all of the offset if it had rows past it, else its whole size.
    if (found.length > 0) offset = 0;
    else if (offset > 0) offset = Math.max(0, offset - (await reader.count(tier)));
  }
  return ids;
}
