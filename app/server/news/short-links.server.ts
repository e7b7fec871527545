import { randomInt } from "node:crypto";
import { SHORT_ID_MAX, SHORT_ID_MIN } from "~/lib/constants";
import { articleIdPath, articlePath, wirePath } from "~/lib/news";
import type { DB } from "~/server/db/db.server";

const MAX_ATTEMPTS = 20;

function randomShortId(): string {
  return String(randomInt(SHORT_ID_MIN, SHORT_ID_MAX + 1));
}

/** Creates the article's short link, retrying on a collision (docs/product.md#short-links). */
export async function createShortLink(db: DB, newsId: string, pickId: () => string = randomShortId): Promise<string> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const shortId = pickId();
    const inserted = await db
      .insertInto("short_links")
      .values({
        short_id: shortId,
        long_url: articleIdPath(newsId),
        news_id: newsId,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column("short_id").doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return shortId;
  }
  throw new Error("Could not find a free short id");
}

/** The article's short link, made now if it has none: an article gets one when first published. */
export async function ensureShortLink(db: DB, newsId: string): Promise<string> {
  return (await shortIdFor(db, newsId)) ?? createShortLink(db, newsId);
}

export function isShortId(value: string): boolean {
  return /^\d{6}$/.test(value);
}

/**
 * Where a short link leads, if it points at a published article (whoever follows it: decision 031): the
 * article's canonical address (`/news/{id}/{slug}`), whatever `long_url` recorded (SPEC's `/news/{id}`).
 */
export async function resolveShortLink(db: DB, shortId: string): Promise<string | null> {
  if (!isShortId(shortId)) return null;
  const row = await db
    .selectFrom("short_links")
    .innerJoin("news", "news.id", "short_links.news_id")
    .select(["news.id", "news.slug"])
    .where("short_links.short_id", "=", shortId)
    .where("news.status", "=", "published")
    .executeTakeFirst();
  return row ? wirePath(articlePath(row.id, row.slug)) : null;
}

export async function shortIdFor(db: DB, newsId: string): Promise<string | null> {
  const row = await db.selectFrom("short_links").select("short_id").where("news_id", "=", newsId).executeTakeFirst();
  return row?.short_id ?? null;
}
