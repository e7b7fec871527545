import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle, canonicalPath } from "../../../harness/articles";
import { openDatabase, type DB } from "~/server/db/db.server";
import { readEventsAfter } from "~/server/outbox/outbox.server";
import { listBreaking } from "./reader-lists.server";
import { searchNews } from "./search-news.server";
import { getArticle, listLatest } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { publishDueArticles } from "./scheduling.server";
import { resolveShortLink, shortIdFor } from "./short-links.server";
import { EDITORS } from "~/lib/audience";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, url, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

function schedule(title: string, at: Date, category: "local" | "breaking" = "local") {
  return createTestArticle(db, {
    title,
    content: `نص ${title}`,
    category,
    status: "scheduled",
    publishAt: at.toISOString(),
  });
}

describe("publishDueArticles", () => {
  it("publishes what is due, with its short link, search entry and one outbox event, and leaves the rest scheduled", async () => {
    const due = await schedule("خبر حان وقته", minutes(1));
    const later = await schedule("خبر لاحق", minutes(60));
    expect(due.shortId).toBeNull();
    expect(await getArticle(db, due.id)).toBeNull();

    const now = minutes(2);
    expect(await publishDueArticles(db, now)).toEqual([due.id]);
    const article = await getArticle(db, due.id);
    expect(article).toMatchObject({ status: "published", publishedAt: now.toISOString(), publishAt: null });
    const shortId = await shortIdFor(db, due.id);
    expect(await resolveShortLink(db, shortId!)).toBe(await canonicalPath(db, due.id));
    // The scheduler gives it its readable address as it publishes it (decision 033).
    expect(await canonicalPath(db, due.id)).toMatch(/^\/news\/[^/]+\/[^/]+$/);
    expect((await searchNews(db, "حان")).results.map((r) => r.id)).toEqual([due.id]);
    const events = (await readEventsAfter(db, 0, 100)).filter((e) => e.articleId === due.id);
    expect(events.map((e) => e.kind)).toEqual(["article-created", "article-published"]);
    expect(events[1]?.after).toMatchObject({ status: "published", publishedAt: now.toISOString() });

    expect(await getArticle(db, later.id, EDITORS)).toMatchObject({ status: "scheduled", publishedAt: null });
    expect(await shortIdFor(db, later.id)).toBeNull();
    expect(await publishDueArticles(db, now)).toEqual([]);
  });

  it("publishes each article exactly once when several processes claim at the same moment", async () => {
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push((await schedule(`مجدول ${i}`, minutes(1), "breaking")).id);
    const others = await Promise.all([1, 2, 3].map(() => openDatabase(url)));
    try {
      // Connected beforehand, so the four claims really start together.
      await Promise.all(others.map((other) => other.selectFrom("news").select("id").execute()));
      const now = minutes(2);
      const claims = await Promise.all([db, ...others].map((process) => publishDueArticles(process, now)));
      expect(claims.flat().sort()).toEqual([...ids].sort());
    } finally {
      await Promise.all(others.map((other) => other.destroy()));
    }
    const published = await readEventsAfter(db, 0, 100);
    for (const id of ids) {
      expect(published.filter((e) => e.articleId === id && e.kind === "article-published")).toHaveLength(1);
      expect(await db.selectFrom("short_links").select("short_id").where("news_id", "=", id).execute()).toHaveLength(1);
    }
    expect((await listBreaking(db)).map((item) => item.id).sort()).toEqual([...ids].sort());
  });

  it("keeps the first publication time when it runs again, and an article unscheduled in time stays unpublished", async () => {
    const kept = await schedule("يُلغى", minutes(1));
    await updateArticle(db, kept.id, {
      title: "يُلغى",
      content: "نص",
      category: "local",
      status: "draft",
      imageUrl: null,
      images: [],
      video: null,
    });
    const published = await schedule("يُنشر", minutes(1));
    expect(await publishDueArticles(db, minutes(2))).toEqual([published.id]);
    const first = (await getArticle(db, published.id))?.publishedAt;
    expect(await publishDueArticles(db, minutes(3))).toEqual([]);
    expect((await getArticle(db, published.id))?.publishedAt).toBe(first);
    expect(await getArticle(db, kept.id, EDITORS)).toMatchObject({
      status: "draft",
      publishedAt: null,
      publishAt: null,
    });
  });
});

describe("lists by publication time", () => {
  it("dates and orders by when an article was published, not written", async () => {
    const earlyDraft = await createTestArticle(db, {
      title: "كتب أولاً",
      category: "breaking",
      status: "draft",
      createdAt: minutes(-30),
    });
    await createTestArticle(db, { title: "نشر بينهما", category: "breaking", createdAt: minutes(-20) });
    await updateArticle(db, earlyDraft.id, {
      title: "كتب أولاً",
      content: "نص",
      category: "breaking",
      status: "published",
      imageUrl: null,
      images: [],
      video: null,
    });

    expect((await listLatest(db, { limit: 10 })).map((n) => n.title)).toEqual(["كتب أولاً", "نشر بينهما"]);
    const breaking = await listBreaking(db);
    expect(breaking.map((n) => n.title)).toEqual(["كتب أولاً", "نشر بينهما"]);
    const article = await getArticle(db, earlyDraft.id);
    expect(Date.parse(article!.publishedAt!)).toBeGreaterThan(Date.parse(article!.createdAt));
    expect(breaking[0]?.publishedAt).toBe(article!.publishedAt);
  });
});
