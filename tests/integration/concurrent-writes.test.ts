/**
 * Writes that PostgreSQL runs side by side (a pool of connections, read committed) where SQLite
 * queues them behind one write lock. Callers alternate between two connections to the database, as
 * two server processes would (with TEST_DATABASE=postgres, two pools).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { getArticle } from "~/server/news/articles-read.server";
import { createArticle } from "~/server/news/articles-write.server";
import { createShortLink } from "~/server/news/short-links.server";
import { searchNews } from "~/server/news/search-news.server";
import { viewOf } from "~/server/visits/view.server";
import { VISITS_PER_ADDRESS_PER_ARTICLE } from "~/lib/constants";
import { recordViews, totalSiteVisits } from "~/server/visits/visits.server";
import { createTestArticle } from "../../harness/articles";
import { inPool } from "../support/pool";
import { createTempDatabase } from "../../harness/temp-db";

const SECRET = "concurrency-secret-concurrency-secret";
/** Visits under way at once, as a busy server's open requests would be. */
const IN_FLIGHT = 200;

describe("concurrent writes", () => {
  let connections: DB[];
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const temp = await createTempDatabase();
    const other = openDatabase(temp.url);
    connections = [temp.db, other];
    cleanup = async () => {
      await other.destroy();
      await temp.cleanup();
    };
  });
  afterEach(async () => cleanup());

  /** The connection the `index`th concurrent caller uses: they alternate. */
  const via = (index: number) => connections[index % connections.length]!;
  const db = () => via(0);

  it("publishes a form posted many times at once exactly once, and tells every post which article it made", async () => {
    const posts = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        createArticle(via(i), {
          title: "خبر أرسل مرات",
          content: "نص",
          category: "local",
          submissionId: "one-submission",
        }),
      ),
    );
    const rows = await db().selectFrom("news").select("id").where("submission_id", "=", "one-submission").execute();
    expect(rows).toHaveLength(1);
    expect(new Set(posts.map((post) => post.id))).toEqual(new Set([rows[0]!.id]));
    expect(posts.filter((post) => !post.duplicate)).toHaveLength(1);
    expect(new Set(posts.map((post) => post.shortId)).size).toBe(1);
  });

  it("gives every article its own short id when concurrent publishes draw the same ids", async () => {
    const articles = await Promise.all(Array.from({ length: 12 }, () => createTestArticle(db())));
    await db().deleteFrom("short_links").execute();
    // Every caller draws 100000, then 100001, …: all of them collide on their first draws.
    const sameDraws = () => {
      let next = 100_000;
      return () => String(next++);
    };
    const shortIds = await Promise.all(
      articles.map((article, i) =>
        via(i)
          .transaction()
          .execute((trx) => createShortLink(trx, article.id, sameDraws())),
      ),
    );
    expect(new Set(shortIds).size).toBe(articles.length);
    const stored = await db().selectFrom("short_links").select(["short_id", "news_id"]).execute();
    expect(stored).toHaveLength(articles.length);
    expect(new Set(stored.map((row) => row.news_id))).toEqual(new Set(articles.map((article) => article.id)));
  });

  it("indexes every article published in the same millisecond by concurrent writers", async () => {
    const createdAt = new Date("2026-03-01T10:00:00.000Z");
    const published = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        createArticle(via(i), {
          title: `بلدية طرابلس ${i}`,
          content: "اجتماع المجلس البلدي",
          category: "local",
          createdAt,
        }),
      ),
    );
    const found: string[] = [];
    for (let page = 1; ; page++) {
      const { results, hasMore } = await searchNews(db(), "بلدية", { page });
      found.push(...results.map((result) => result.id));
      if (!hasMore) break;
    }
    expect(found.sort()).toEqual(published.map((article) => article.id).sort());
  });

  it(
    "counts 10,000 views written in concurrent batches exactly: each browser once a day, to the article and to the site",
    { timeout: 120_000 },
    async () => {
      const { id } = await createTestArticle(db());
      const clients = 4_000;
      const at = new Date();
      // Even views go to the article, odd ones to the site; a fifth of them are a browser's second view.
      const views = Array.from({ length: 10_000 }, (_, i) => {
        const client = Math.floor(i / 2) % clients;
        const address = `198.51.${Math.floor(client / 250)}.${client % 250}`;
        return viewOf(SECRET, {
          newsId: i % 2 === 0 ? id : null,
          reader: `reader-${client}-of-the-test`,
          address,
          source: "direct",
          device: "phone",
          at,
        });
      });
      const batches = Array.from({ length: 200 }, (_, b) => views.slice(b * 50, b * 50 + 50));
      const recorded = await inPool(batches.length, IN_FLIGHT, (b) => recordViews(via(b), batches[b]!));
      expect(recorded.reduce((sum, r) => sum + r.counted, 0)).toBe(2 * clients);
      expect((await getArticle(db(), id))?.visits).toBe(clients);
      expect(await totalSiteVisits(db())).toBe(clients);
    },
  );

  it(
    "holds one address to its bound however its forged browsers' batches interleave",
    { timeout: 120_000 },
    async () => {
      const { id } = await createTestArticle(db());
      const at = new Date();
      const views = Array.from({ length: 2_000 }, (_, i) =>
        viewOf(SECRET, {
          newsId: id,
          reader: `forged-browser-${i}`,
          address: "203.0.113.99",
          source: "direct",
          device: "desktop",
          at,
        }),
      );
      await inPool(40, IN_FLIGHT, (b) => recordViews(via(b), views.slice(b * 50, b * 50 + 50)));
      expect((await getArticle(db(), id))?.visits).toBe(VISITS_PER_ADDRESS_PER_ARTICLE);
    },
  );
});
