import { randomBytes } from "node:crypto";
import { parseStringList } from "~/lib/json";
import { sql, type SelectQueryBuilder } from "kysely";
import { isCategory, PICK_CATEGORIES, type Category } from "~/lib/categories";
import { LATEST_NEWS_COUNT, MOST_READ_FETCHED, RELATED_COUNT, SLIDER_COUNT } from "~/lib/constants";
import type { NewsArticle, NewsStatus, NewsSummary, SidebarLists } from "~/lib/news";
import { PUBLIC, type Audience } from "./audience.server";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import type { DB } from "~/server/db/db.server";
import type { Database } from "~/server/db/schema";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { createShortLink } from "./short-links.server";
import { recordArticleEvent, writeWithEvents, type ArticleState } from "~/server/outbox/outbox.server";

const EXCERPT_CHARS = 160;

type NewsQuery<O> = SelectQueryBuilder<Database, "news", O>;

function summaryColumns<O>(query: NewsQuery<O>) {
  return query.select([
    "news.id",
    "news.title",
    sql<string>`substr(news.content, 1, ${sql.lit(EXCERPT_CHARS)})`.as("excerpt"),
    "news.category",
    "news.images",
    "news.image_url",
    "news.is_video",
    "news.status",
    "news.visits",
    "news.created_at",
  ]);
}

type SummaryRow = {
  id: string;
  title: string;
  excerpt: string;
  category: string;
  images: string;
  image_url: string | null;
  is_video: number;
  status: NewsStatus;
  visits: number;
  created_at: string;
};

function toSummary(row: SummaryRow): NewsSummary {
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    category: isCategory(row.category) ? row.category : "miscellaneous",
    image: parseStringList(row.images)[0] ?? row.image_url ?? null,
    isVideo: row.is_video === 1,
    status: row.status,
    visits: row.visits,
    createdAt: row.created_at,
  };
}

function visibleTo<O>(query: NewsQuery<O>, audience: Audience): NewsQuery<O> {
  return audience.includeDrafts ? query : query.where("news.status", "=", "published");
}

function summaries(db: DB, audience: Audience) {
  return summaryColumns(visibleTo(db.selectFrom("news"), audience));
}

export async function listLatest(
  db: DB,
  options: {
    limit: number;
    offset?: number;
    category?: Category;
    audience?: Audience;
  },
): Promise<NewsSummary[]> {
  let query = summaries(db, options.audience ?? PUBLIC);
  if (options.category) query = query.where("news.category", "=", options.category);
  const rows = await query
    .orderBy("news.created_at", "desc")
    .orderBy("news.id", "desc")
    .limit(options.limit)
    .offset(options.offset ?? 0)
    .execute();
  return rows.map(toSummary);
}

/**
 * The `limit` newest of each category, in one statement: on PostgreSQL each statement is a round trip
 * that holds a pooled connection, and the home page asked for seven sections one by one.
 */
export async function listLatestByCategory(
  db: DB,
  categories: readonly Category[],
  limit: number,
  audience: Audience = PUBLIC,
  excludeId?: string,
): Promise<Map<Category, NewsSummary[]>> {
  const sections = new Map<Category, NewsSummary[]>(categories.map((category) => [category, []]));
  const [first, ...rest] = categories.map((category) =>
    db
      .selectFrom(
        summaries(db, audience)
          .where("news.category", "=", category)
          .$if(excludeId !== undefined, (query) => query.where("news.id", "!=", excludeId!))
          .orderBy("news.created_at", "desc")
          .orderBy("news.id", "desc")
          .limit(limit)
          .as("section"),
      )
      .selectAll(),
  );
  if (!first) return sections;
  const rows = await rest.reduce((query, next) => query.unionAll(next), first).execute();
  // A union keeps no order of its own: each section is sorted again.
  const newestFirst = (a: SummaryRow, b: SummaryRow) =>
    b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
  for (const row of [...rows].sort(newestFirst)) sections.get(row.category as Category)?.push(toSummary(row));
  return sections;
}

/** One page of a category, plus whether another page follows. */
export async function listCategoryPage(
  db: DB,
  category: Category,
  page: number,
  pageSize: number,
  audience: Audience = PUBLIC,
): Promise<{ items: NewsSummary[]; hasMore: boolean }> {
  const rows = await listLatest(db, {
    category,
    limit: pageSize + 1,
    offset: (page - 1) * pageSize,
    audience,
  });
  return { items: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** SPEC.md §9: the 4 newest items that have an image and are not video. */
export async function listSlider(db: DB, audience: Audience = PUBLIC): Promise<NewsSummary[]> {
  const rows = await summaries(db, audience)
    .where("news.is_video", "=", 0)
    .where((eb) => eb.or([eb("news.images", "!=", "[]"), eb("news.image_url", "is not", null)]))
    .orderBy("news.created_at", "desc")
    .limit(SLIDER_COUNT)
    .execute();
  return rows.map(toSummary);
}

export async function listMostRead(
  db: DB,
  limit: number = MOST_READ_FETCHED,
  audience: Audience = PUBLIC,
): Promise<NewsSummary[]> {
  const rows = await summaries(db, audience)
    .orderBy("news.visits", "desc")
    .orderBy("news.created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

/** The lists beside home and every article: latest news and most read. */
export async function listSidebar(db: DB, audience: Audience): Promise<SidebarLists> {
  const [latest, mostRead] = await Promise.all([listLatest(db, { limit: LATEST_NEWS_COUNT, audience }), listMostRead(db, undefined, audience)]);
  return { latest, mostRead };
}

/** Newest article of each picks category, leaving out the one being read: one statement, as for home's sections. */
export async function listPicks(db: DB, excludeId: string, audience: Audience = PUBLIC): Promise<NewsSummary[]> {
  const sections = await listLatestByCategory(db, PICK_CATEGORIES, 1, audience, excludeId);
  return PICK_CATEGORIES.flatMap((category) => sections.get(category) ?? []);
}

export async function listRelated(
  db: DB,
  article: { id: string; category: Category },
  audience: Audience = PUBLIC,
): Promise<NewsSummary[]> {
  const rows = await summaries(db, audience)
    .where("news.category", "=", article.category)
    .where("news.id", "!=", article.id)
    .orderBy("news.created_at", "desc")
    .limit(RELATED_COUNT)
    .execute();
  return rows.map(toSummary);
}

export async function getArticle(db: DB, id: string, audience: Audience = PUBLIC): Promise<NewsArticle | null> {
  const row = await visibleTo(db.selectFrom("news"), audience).selectAll().where("news.id", "=", id).executeTakeFirst();
  if (!row) return null;
  return {
    ...toSummary({ ...row, excerpt: row.content.slice(0, EXCERPT_CHARS) }),
    content: row.content,
    images: parseStringList(row.images),
    video: row.video || null,
    imageUrl: row.image_url,
    updatedAt: row.updated_at,
    publishedAt: row.published_at,
  };
}

/** The visible articles among `ids`, with their full text, in the order of `ids`. */
export async function listArticlesByIds(
  db: DB,
  ids: string[],
  audience: Audience = PUBLIC,
): Promise<(NewsSummary & { content: string })[]> {
  if (ids.length === 0) return [];
  // Visibility is checked here rather than in SQL: with a status condition beside `id in (…)`,
  // SQLite's planner walks a status index over every published article instead of the primary key.
  const rows = await summaryColumns(db.selectFrom("news")).select("news.content").where("news.id", "in", ids).execute();
  const visible = rows.filter((row) => audience.includeDrafts || row.status === "published");
  const byId = new Map(visible.map((row) => [row.id, { ...toSummary(row), content: row.content }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A 20-character id, the same shape as the original's document ids. */
export function newArticleId(): string {
  return Array.from(randomBytes(20), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

export type NewArticle = {
  title: string;
  content: string;
  category: Category;
  images?: string[];
  video?: string | null;
  status?: NewsStatus;
  /** When a scheduled article goes out (ISO 8601); stored and acted on by scheduling (part B). */
  publishAt?: string | null;
  visits?: number;
  authorId?: string | null;
  createdAt?: Date;
  /** The form submission that asked for it: the same submission never creates two articles. */
  submissionId?: string;
};

export type CreatedArticle = { id: string; shortId: string; createdAt: string; duplicate: boolean };

/** The article a form submission already created, if any. */
async function articleOfSubmission(db: DB, submissionId: string): Promise<CreatedArticle | undefined> {
  const existing = await db
    .selectFrom("news")
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select(["news.id", "news.created_at", "short_links.short_id"])
    .where("news.submission_id", "=", submissionId)
    .executeTakeFirst();
  return existing && { id: existing.id, shortId: existing.short_id ?? "", createdAt: existing.created_at, duplicate: true };
}

/**
 * Creates an article, its short link, its search entry and its outbox event in one transaction. A
 * submission already used returns the article it created: the unique index on submission_id decides,
 * so two identical posts at the same moment (on a server that runs them in parallel) still publish once.
 */
export async function createArticle(db: DB, input: NewArticle): Promise<CreatedArticle> {
  return writeWithEvents(db, async (trx) => {
    const id = newArticleId();
    const createdAt = (input.createdAt ?? new Date()).toISOString();
    const status = input.status ?? "published";
    const inserted = await trx
      .insertInto("news")
      .values({
        id,
        title: input.title,
        content: input.content,
        category: input.category,
        images: JSON.stringify(input.images ?? []),
        image_url: null,
        video: input.video ?? null,
        is_video: input.video ? 1 : 0,
        status,
        visits: input.visits ?? 0,
        author_id: input.authorId ?? null,
        created_at: createdAt,
        updated_at: null,
        published_at: status === "published" ? createdAt : null,
        submission_id: input.submissionId ?? null,
      })
      // Waits for a concurrent insert of the same submission to commit, then inserts nothing.
      .onConflict((oc) => oc.column("submission_id").doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 0n) {
      const existing = input.submissionId ? await articleOfSubmission(trx, input.submissionId) : undefined;
      if (!existing) throw new Error("the article's submission conflicted, but its article is gone");
      return existing;
    }
    const shortId = await createShortLink(trx, id);
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, null, { id, title: input.title, createdAt, category: input.category, status });
    return { id, shortId, createdAt, duplicate: false };
  });
}

export type ArticleChanges = {
  title: string;
  content: string;
  category: Category;
  status: NewsStatus;
  /** When a scheduled article goes out (ISO 8601); stored and acted on by scheduling (part B). */
  publishAt?: string | null;
  /** Change the article only if it still has this author and one of these statuses (permissions.ts editCondition). */
  onlyIf?: { authorId: string; statuses: readonly NewsStatus[] } | null;
  imageUrl: string | null;
  images: string[];
  video: string | null;
};

/** An article's public state as its row holds it, for its outbox event. */
function articleState(id: string, row: { title: string; category: string; status: NewsStatus; created_at: string }): ArticleState {
  return { id, title: row.title, createdAt: row.created_at, category: isCategory(row.category) ? row.category : "miscellaneous", status: row.status };
}

/**
 * Applies an edit and records it in the outbox; returns the media URLs the article no longer uses (to
 * delete once committed), or null when there is no such article.
 */
export async function updateArticle(db: DB, id: string, changes: ArticleChanges): Promise<{ unusedMedia: string[] } | null> {
  return writeWithEvents(db, async (trx) => {
    const current = await trx
      .selectFrom("news")
      .select(["images", "video", "published_at", "title", "category", "status", "created_at"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!current) return null;
    const now = new Date().toISOString();
    const updated = await trx
      .updateTable("news")
      .set({
        title: changes.title,
        content: changes.content,
        category: changes.category,
        status: changes.status,
        image_url: changes.imageUrl,
        images: JSON.stringify(changes.images),
        video: changes.video,
        is_video: changes.video ? 1 : 0,
        updated_at: now,
        published_at: current.published_at ?? (changes.status === "published" ? now : null),
        // Submitting for review again closes the editor's last note.
        ...(changes.status === "review" ? { review_note: null } : {}),
      })
      .where("id", "=", id)
      .$if(Boolean(changes.onlyIf), (qb) => qb.where("author_id", "=", changes.onlyIf!.authorId).where("status", "in", changes.onlyIf!.statuses))
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new AppError("forbidden", { message: messages.articleNotYours });
    await syncSearchIndex(trx, id);
    const after = { id, title: changes.title, createdAt: current.created_at, category: changes.category, status: changes.status };
    await recordArticleEvent(trx, articleState(id, current), after);
    const usedBefore = [...parseStringList(current.images), ...(current.video ? [current.video] : [])];
    const usedAfter = new Set([...changes.images, ...(changes.video ? [changes.video] : [])]);
    return { unusedMedia: await mediaOnlyUsedBy(trx, id, usedBefore.filter((url) => !usedAfter.has(url))) };
  });
}

/**
 * The URLs among `urls` that no article but `id` refers to: only their files may be removed. Names
 * stored before issue 12 could be shared by two articles.
 */
async function mediaOnlyUsedBy(db: DB, id: string, urls: string[]): Promise<string[]> {
  const own: string[] = [];
  for (const url of urls) {
    const other = await db
      .selectFrom("news")
      .select("id")
      .where("id", "!=", id)
      .where((eb) => eb.or([eb("video", "=", url), eb("image_url", "=", url), eb("images", "like", `%${JSON.stringify(url)}%`)]))
      .executeTakeFirst();
    if (!other) own.push(url);
  }
  return own;
}

/**
 * Deletes an article (its short link goes with it) and records it in the outbox; returns the media
 * URLs only it used, or null when there is none.
 */
export async function deleteArticle(db: DB, id: string): Promise<{ media: string[] } | null> {
  return writeWithEvents(db, async (trx) => {
    const row = await trx
      .selectFrom("news")
      .select(["images", "video", "category", "title", "created_at", "status"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    await trx.deleteFrom("short_links").where("news_id", "=", id).execute();
    await trx.deleteFrom("news").where("id", "=", id).execute();
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, articleState(id, row), null);
    return { media: await mediaOnlyUsedBy(trx, id, [...parseStringList(row.images), ...(row.video ? [row.video] : [])]) };
  });
}

/** Every media URL an article refers to (images, the legacy image_url, video), for the sweep at start. */
export async function listReferencedMedia(db: DB): Promise<string[]> {
  const rows = await db.selectFrom("news").select(["images", "image_url", "video"]).execute();
  return rows.flatMap((row) => [...parseStringList(row.images), ...(row.image_url ? [row.image_url] : []), ...(row.video ? [row.video] : [])]);
}

/** All articles for the dashboard table, drafts included, newest first. */
export async function listAllForDashboard(db: DB, page: number, pageSize: number) {
  const rows = await summaries(db, { includeDrafts: true })
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select("short_links.short_id")
    .orderBy("news.created_at", "desc")
    .orderBy("news.id", "desc")
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    items: rows.slice(0, pageSize).map((row) => ({ ...toSummary(row), shortId: row.short_id })),
    hasMore: rows.length > pageSize,
  };
}
