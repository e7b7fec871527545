import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Category } from "~/lib/categories";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleAt } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { createReadCache, type ReadCache } from "~/server/platform/read-cache.server";
import type { NewArticle } from "./articles-write.server";
import { breakingTicker, picksBeside, relatedTo, sidebarLists } from "./reader-lists.server";

let db: DB;
let cleanup: () => Promise<void>;
let cache: ReadCache;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  cache = createReadCache();
});
afterEach(async () => cleanup());

const article = (minutes: number, overrides: Partial<NewArticle> = {}) => articleAt(db, minutes, overrides);

describe("picks and related", () => {
  it("picks the newest of each of the five categories, without the current article", async () => {
    const categories: Category[] = ["local", "international", "educational", "sports", "miscellaneous", "breaking"];
    const ids: Record<string, string> = {};
    for (const [i, category] of categories.entries()) {
      await article(i, { category, title: `قديم ${category}` });
      ids[category] = await article(100 + i, { category, title: `جديد ${category}` });
    }
    // The article's own category has no pick: its only other article is already related.
    const expected = ["جديد international", "جديد educational", "جديد sports", "جديد miscellaneous"];
    const reading = (category: Category) => ({ id: ids[category]!, category });
    expect((await picksBeside(db, cache, reading("local"))).map((n) => n.title)).toEqual(expected);
    // From the cache now: another article's picks leave out only that one and its related.
    expect((await picksBeside(db, cache, reading("sports"))).map((n) => n.title)).toEqual([
      "جديد local",
      "جديد international",
      "جديد educational",
      "جديد miscellaneous",
    ]);
  });

  it("never picks an article the page already relates: its own category's pick comes after the related ones", async () => {
    const current = await article(50, { category: "sports" });
    for (const i of [1, 2, 3, 4]) await article(i, { category: "sports" });
    await article(5, { category: "local" });
    const reading = { id: current, category: "sports" as const };
    const [related, picks] = await Promise.all([relatedTo(db, cache, reading), picksBeside(db, cache, reading)]);
    expect(related.map((n) => n.title)).toEqual(["خبر 4", "خبر 3"]);
    expect(picks.map((n) => n.title)).toEqual(["خبر 5", "خبر 2"]);
  });

  it("relates 2 newest of the same category, never the article itself", async () => {
    const current = await article(50, { category: "sports" });
    await article(1, { category: "sports" });
    await article(2, { category: "sports" });
    await article(3, { category: "sports" });
    await article(60, { category: "local" });
    expect((await relatedTo(db, cache, { id: current, category: "sports" })).map((n) => n.title)).toEqual([
      "خبر 3",
      "خبر 2",
    ]);
    const newest = await article(70, { category: "sports" });
    cache.clear();
    expect((await relatedTo(db, cache, { id: newest, category: "sports" })).map((n) => n.title)).toEqual([
      "خبر 50",
      "خبر 3",
    ]);
  });
});

describe("the shared lists' cache", () => {
  it("reads once until cleared, then sees the change", async () => {
    await article(0, { category: "breaking", title: "عاجل أول" });
    expect((await breakingTicker(db, cache)).map((n) => n.title)).toEqual(["عاجل أول"]);
    await article(1, { category: "breaking", title: "عاجل ثان" });
    // Unchanged until the outbox follower clears the cache, as the page cache.
    expect((await breakingTicker(db, cache)).map((n) => n.title)).toEqual(["عاجل أول"]);
    cache.clear();
    expect((await breakingTicker(db, cache)).map((n) => n.title)).toEqual(["عاجل ثان", "عاجل أول"]);
  });

  it("holds published articles only: drafts stay out of every reader's lists", async () => {
    await article(0, { title: "منشور" });
    await article(1, { title: "مسودة", status: "draft" });
    expect((await sidebarLists(db, cache)).latest.map((n) => n.title)).toEqual(["منشور"]);
  });
});
