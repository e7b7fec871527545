import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { topicMessages } from "~/lib/newsroom-messages";
import { joinTopicNames, topicKey, topicSlug, TOPIC_SUGGESTIONS, type Topic } from "~/lib/topics";
import type { NewsSummary } from "~/lib/news";
import { PUBLIC } from "~/lib/audience";
import type { DB } from "~/server/db/db.server";
import { executeCompiledWith } from "~/server/db/compiled-once.server";
import { prefixPattern } from "~/server/db/like.server";
import { AppError } from "~/server/platform/app-error.server";
import { newestFirst, summaries, toSummary } from "./articles-read.server";

/*
 * Topics (decision 032): reading them, and linking an article to its topics inside the article's own
 * write (articles-write.server.ts). Renames and merges: topic-admin.server.ts.
 */

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

function newTopicId(): string {
  return Array.from(randomBytes(12), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

/** What an article's write asks of its topics: these names, in order; new ones created only when `mayCreate` (editors). */
export type TopicsRequest = { names: readonly string[]; mayCreate: boolean };

/** The topics named, found by key, or by a slug a rename or merge left behind. */
async function existingTopics(db: DB, names: readonly string[]): Promise<Map<string, string>> {
  const keys = names.map(topicKey);
  const slugs = names.map(topicSlug);
  const [byKey, bySlug] = await Promise.all([
    db.selectFrom("topics").select(["id", "key"]).where("key", "in", keys).execute(),
    db.selectFrom("topic_redirects").select(["topic_id", "slug"]).where("slug", "in", slugs).execute(),
  ]);
  const found = new Map<string, string>();
  for (const name of names) {
    const id =
      byKey.find((row) => row.key === topicKey(name))?.id ??
      bySlug.find((row) => row.slug === topicSlug(name))?.topic_id;
    if (id) found.set(name, id);
  }
  return found;
}

/** Creates a topic (a slug left behind by another gives way to it) and returns its id; a topic made meanwhile under the same key is used. */
export async function createTopic(trx: DB, name: string, now: string): Promise<string> {
  const slug = topicSlug(name);
  const key = topicKey(name);
  await trx.deleteFrom("topic_redirects").where("slug", "=", slug).execute();
  await trx
    .insertInto("topics")
    .values({ id: newTopicId(), name, slug, key, created_at: now, updated_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await trx.selectFrom("topics").select("id").where("key", "=", key).executeTakeFirst();
  if (!row)
    throw new AppError("conflict", { message: topicMessages.nameTaken, fields: { topics: topicMessages.nameTaken } });
  return row.id;
}

/**
 * The ids of the topics `request` names, in its order, creating the new ones when it may; an author's
 * unknown name is refused (nothing is written: the caller's transaction rolls back).
 */
async function resolveTopics(trx: DB, request: TopicsRequest, now: string): Promise<string[]> {
  if (request.names.length === 0) return [];
  const found = await existingTopics(trx, request.names);
  const unknown = request.names.filter((name) => !found.has(name));
  if (unknown.length > 0 && !request.mayCreate) {
    const message = `${topicMessages.unknownForAuthor} ${joinTopicNames(unknown)}`;
    throw new AppError("validation", { message, fields: { topics: message } });
  }
  const ids: string[] = [];
  for (const name of request.names) ids.push(found.get(name) ?? (await createTopic(trx, name, now)));
  return [...new Set(ids)];
}

/** Checks an author's (or anyone's) topics before anything is stored: the same refusal resolveTopics gives, earlier. */
export async function assertTopicsAllowed(db: DB, request: TopicsRequest): Promise<void> {
  if (request.mayCreate || request.names.length === 0) return;
  const found = await existingTopics(db, request.names);
  const unknown = request.names.filter((name) => !found.has(name));
  if (unknown.length === 0) return;
  const message = `${topicMessages.unknownForAuthor} ${joinTopicNames(unknown)}`;
  throw new AppError("validation", { message, fields: { topics: message } });
}

/** Sets the article's topics to those `request` names, in its transaction `trx`. */
export async function setArticleTopics(trx: DB, newsId: string, request: TopicsRequest, now: string): Promise<void> {
  const ids = await resolveTopics(trx, request, now);
  await trx.deleteFrom("news_topics").where("news_id", "=", newsId).execute();
  if (ids.length === 0) return;
  await trx
    .insertInto("news_topics")
    .values(ids.map((topic_id, position) => ({ news_id: newsId, topic_id, position })))
    .execute();
}

/** An article's topics in their order. */
export async function topicsOfArticle(db: DB, newsId: string): Promise<Topic[]> {
  return executeCompiledWith(db, "topics of article", [newsId], (standIn) =>
    db
      .selectFrom("news_topics")
      .innerJoin("topics", "topics.id", "news_topics.topic_id")
      .select(["topics.id", "topics.name", "topics.slug"])
      .where("news_topics.news_id", "=", standIn)
      .orderBy("news_topics.position"),
  );
}

/** The topics' names of an article, for its revision: a JSON list ("[]" when it has none, so a restore clears them). */
export async function storedTopicNames(db: DB, newsId: string): Promise<string> {
  return JSON.stringify((await topicsOfArticle(db, newsId)).map((topic) => topic.name));
}

/**
 * Topics whose normalised name starts with what was typed, or has a word that does (with or without
 * the article ال): "منيه" finds "المنية". Shortest names first.
 */
export async function suggestTopics(db: DB, typed: string, limit = TOPIC_SUGGESTIONS): Promise<Topic[]> {
  const key = topicKey(typed);
  if (key === "") return [];
  const patterns = [key, `ال${key}`, ` ${key}`, ` ال${key}`].map(
    (start, index) => `${index < 2 ? "" : "%"}${prefixPattern(start)}`,
  );
  return db
    .selectFrom("topics")
    .select(["id", "name", "slug"])
    .where((eb) => eb.or(patterns.map((pattern) => sql<boolean>`${eb.ref("key")} like ${pattern} escape '\\'`)))
    .orderBy(sql`length(${sql.ref("key")})`)
    .orderBy("name")
    .limit(limit)
    .execute();
}

export type TopicLookup =
  { kind: "topic"; topic: Topic & { description: string | null } } | { kind: "moved"; slug: string };

/**
 * Whether a published story carries the topic: a topic is public from then on (docs/product.md#topics).
 * Asked of one topic by its id, so that PostgreSQL plans for that topic's own links, not an average topic's.
 */
async function isPublicTopic(db: DB, topicId: string): Promise<boolean> {
  const carried = await db
    .selectFrom("news_topics")
    .innerJoin("news", "news.id", "news_topics.news_id")
    .select("news_topics.news_id")
    .where("news_topics.topic_id", "=", topicId)
    .where("news.status", "=", "published")
    .limit(1)
    .executeTakeFirst();
  return carried !== undefined;
}

/**
 * The public topic an address names: its own slug; or a slug a rename or a merge left, or another
 * spelling of its name, both answered with the topic's own slug (a 301 for the route). Null when none,
 * or when no published story carries it yet.
 */
export async function findTopicBySlug(db: DB, slug: string): Promise<TopicLookup | null> {
  // No slug holds a NUL, and PostgreSQL cannot even compare one with text.
  if (slug.includes("\0")) return null;
  const own = await db
    .selectFrom("topics")
    .select(["id", "name", "slug", "description"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (own && (await isPublicTopic(db, own.id))) return { kind: "topic", topic: own };
  const moved = await db
    .selectFrom("topics")
    .innerJoin("topic_redirects", "topics.id", "topic_redirects.topic_id")
    .select(["topics.id", "topics.slug"])
    .where("topic_redirects.slug", "=", slug)
    .executeTakeFirst();
  if (moved && (await isPublicTopic(db, moved.id))) return { kind: "moved", slug: moved.slug };
  const key = topicKey(slug);
  const spelled =
    key === ""
      ? undefined
      : await db.selectFrom("topics").select(["id", "slug"]).where("key", "=", key).executeTakeFirst();
  return spelled && (await isPublicTopic(db, spelled.id)) ? { kind: "moved", slug: spelled.slug } : null;
}

/** One page of a topic's published articles, newest first, and whether another follows. */
export async function listTopicPage(
  db: DB,
  topicId: string,
  page: number,
  pageSize: number,
): Promise<{ items: NewsSummary[]; hasMore: boolean }> {
  const rows = await newestFirst(
    summaries(db, PUBLIC).where("news.id", "in", (eb) =>
      eb.selectFrom("news_topics").select("news_topics.news_id").where("news_topics.topic_id", "=", topicId),
    ),
    PUBLIC,
  )
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return { items: rows.slice(0, pageSize).map(toSummary), hasMore: rows.length > pageSize };
}

/**
 * The published articles sharing most topics with `article`, then the newest: at most `limit`, the
 * article itself left out. Empty for an article without topics.
 */
export async function listSharingTopics(db: DB, newsId: string, limit: number): Promise<NewsSummary[]> {
  // The article's topics first, by their ids: PostgreSQL then plans for those topics' own links, not an average topic's.
  const topicIds = (await db.selectFrom("news_topics").select("topic_id").where("news_id", "=", newsId).execute()).map(
    (row) => row.topic_id,
  );
  if (topicIds.length === 0) return [];
  const shared = db
    .selectFrom("news_topics")
    .select(["news_topics.news_id", (eb) => eb.fn.countAll<number>().as("shared")])
    .where("news_topics.topic_id", "in", topicIds)
    .where("news_topics.news_id", "!=", newsId)
    .groupBy("news_topics.news_id")
    .as("shared");
  const rows = await summaries(db, PUBLIC)
    .innerJoin(shared, "shared.news_id", "news.id")
    .orderBy("shared.shared", "desc")
    .orderBy("news.published_at", "desc")
    .orderBy("news.id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

/** The topics with published articles, for the sitemap, each dated by its newest article's change. */
export async function listTopicsForSitemap(db: DB): Promise<{ slug: string; lastModified: string | null }[]> {
  const rows = await db
    .selectFrom("topics")
    .innerJoin("news_topics", "news_topics.topic_id", "topics.id")
    .innerJoin("news", "news.id", "news_topics.news_id")
    .select([
      "topics.slug",
      (eb) => eb.fn.max(eb.fn.coalesce("news.updated_at", "news.published_at", "news.created_at")).as("lastModified"),
    ])
    .where("news.status", "=", "published")
    .groupBy(["topics.id", "topics.slug"])
    .orderBy("topics.slug")
    .execute();
  return rows.map((row) => ({ slug: row.slug, lastModified: row.lastModified ?? null }));
}

/** The topics' names of each article among `ids` (published ones, for the news sitemap), in their order. */
export async function topicNamesByArticle(db: DB, ids: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (ids.length === 0) return names;
  const rows = await db
    .selectFrom("news_topics")
    .innerJoin("topics", "topics.id", "news_topics.topic_id")
    .select(["news_topics.news_id", "topics.name"])
    .where("news_topics.news_id", "in", ids)
    .orderBy("news_topics.news_id")
    .orderBy("news_topics.position")
    .execute();
  for (const row of rows) names.set(row.news_id, [...(names.get(row.news_id) ?? []), row.name]);
  return names;
}
