import { sql, type ExpressionBuilder } from "kysely";
import { parseStringList } from "~/lib/json";
import { creditOf, type Credit } from "~/lib/bylines";
import { isCategory, type Category } from "~/lib/categories";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";

/** What the feeds read of the database: published articles only, whoever asks. */

type NewsExpressions = ExpressionBuilder<Database, "news">;

const EXCERPT_SOURCE_CHARS = 400;

/** Every published article has published_at (migration 008 filled it for older ones); the fallback only types it. */
function publishedAt(eb: NewsExpressions) {
  return eb.fn.coalesce("news.published_at", "news.created_at");
}

function lastModified(eb: NewsExpressions) {
  return eb.fn.coalesce("news.updated_at", "news.published_at", "news.created_at");
}

function published(db: DB) {
  return db.selectFrom("news").where("news.status", "=", "published");
}

/** What search engines are shown (sitemaps): published and not marked noindex. RSS keeps noindex stories (decision 033). */
function indexable(db: DB) {
  return published(db).where("news.noindex", "=", 0);
}

function firstImage(imagesJson: string, legacyImage: string | null): string | null {
  return parseStringList(imagesJson)[0] ?? (legacyImage || null);
}

/** The articles the sitemap lists. */
export async function countPublishedArticles(db: DB): Promise<number> {
  const row = await indexable(db)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** First published first, so an article keeps its sitemap page as new ones are published. */
export async function listSitemapArticles(
  db: DB,
  offset: number,
  limit: number,
): Promise<{ id: string; slug: string | null; lastModified: string }[]> {
  return indexable(db)
    .select((eb) => ["news.id", "news.slug", lastModified(eb).as("lastModified")])
    .orderBy("news.published_at", "asc")
    .orderBy("news.id", "asc")
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The newest change among each category's published articles; categories without any are absent. */
export async function lastModifiedByCategory(db: DB): Promise<Partial<Record<Category, string>>> {
  const rows = await published(db)
    .select((eb) => ["news.category", eb.fn.max(lastModified(eb)).as("lastModified")])
    .groupBy("news.category")
    .execute();
  const result: Partial<Record<Category, string>> = {};
  for (const row of rows) {
    if (isCategory(row.category) && row.lastModified) result[row.category] = row.lastModified;
  }
  return result;
}

export async function listPublishedSince(
  db: DB,
  since: Date,
  limit: number,
): Promise<{ id: string; slug: string | null; title: string; publishedAt: string }[]> {
  return indexable(db)
    .select((eb) => ["news.id", "news.slug", "news.title", publishedAt(eb).as("publishedAt")])
    .where("news.published_at", ">=", since.toISOString())
    .orderBy("news.published_at", "desc")
    .orderBy("news.id", "desc")
    .limit(limit)
    .execute();
}

export type FeedArticle = {
  id: string;
  slug: string | null;
  title: string;
  /** The standfirst when set, else the start of the text, enough for a 200-character summary. */
  contentStart: string;
  /** Whether contentStart is the standfirst (given whole, not cut). */
  isStandfirst: boolean;
  category: Category;
  image: string | null;
  publishedAt: string;
  credit: Credit | null;
};

/** The newest published articles, in the order the site lists them. */
export async function listFeedArticles(
  db: DB,
  options: { limit: number; category?: Category; topicId?: string },
): Promise<FeedArticle[]> {
  let query = published(db);
  if (options.category) query = query.where("news.category", "=", options.category);
  const { topicId } = options;
  if (topicId)
    query = query.where("news.id", "in", (eb) =>
      eb.selectFrom("news_topics").select("news_topics.news_id").where("news_topics.topic_id", "=", topicId),
    );
  const rows = await query
    .select((eb) => [
      "news.id",
      "news.slug",
      "news.title",
      "news.standfirst",
      sql<string>`substr(news.content, 1, ${sql.lit(EXCERPT_SOURCE_CHARS)})`.as("contentStart"),
      "news.category",
      "news.images",
      "news.image_url",
      publishedAt(eb).as("publishedAt"),
      "news.byline",
      eb.selectFrom("user").select("user.name").whereRef("user.id", "=", "news.author_id").as("authorName"),
    ])
    .orderBy("news.published_at", "desc")
    .orderBy("news.id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    title: row.title,
    contentStart: row.standfirst ?? row.contentStart,
    isStandfirst: row.standfirst !== null,
    category: isCategory(row.category) ? row.category : "miscellaneous",
    image: firstImage(row.images, row.image_url),
    publishedAt: row.publishedAt,
    credit: creditOf(row.byline, row.authorName),
  }));
}
