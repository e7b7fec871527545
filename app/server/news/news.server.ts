import { randomBytes } from "node:crypto";
import { parseStringList } from "~/lib/json";
import { parseImageDetails, storedImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { creditOf } from "~/lib/bylines";
import { isCategory, type Category } from "~/lib/categories";
import { MOST_READ_FETCHED, SLIDER_COUNT } from "~/lib/constants";
import type { NewsArticle, NewsStatus, NewsSummary } from "~/lib/news";
import { documentImages, documentPlainText, storedBody, type RichDocument } from "~/lib/rich-text/document";
import { PUBLIC, type Audience } from "~/lib/audience";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import type { DB } from "~/server/db/db.server";
import type { Database } from "~/server/db/schema";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { ensureShortLink } from "./short-links.server";
import { deleteRevisionsOf, keepRevision, UNNAMED_SAVE, type Save, listRevisionMedia, revisionMediaOf, revisionUses } from "./revisions.server";
import { dialectName } from "~/server/db/dialect.server";
import { executeCompiledOnce } from "~/server/db/compiled-once.server";
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
    "news.published_at",
    "news.byline",
    authorName,
  ]);
}

/** The author's name, read beside each article (a scalar subquery keeps every list's plan on `news`). */
function authorName(eb: ExpressionBuilder<Database, "news">) {
  return eb.selectFrom("user").select("user.name").whereRef("user.id", "=", "news.author_id").as("author_name");
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
  published_at: string | null;
  byline: string | null;
  author_name: string | null;
};

export function toSummary(row: SummaryRow): NewsSummary {
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
    publishedAt: row.published_at,
    credit: creditOf(row.byline, row.author_name),
  };
}

function visibleTo<O>(query: NewsQuery<O>, audience: Audience): NewsQuery<O> {
  // The trash has its own view (trash.server.ts): no list or page shows what is in it.
  return audience.includeDrafts ? query.where("news.status", "!=", "trashed") : query.where("news.status", "=", "published");
}

export function summaries(db: DB, audience: Audience) {
  return summaryColumns(visibleTo(db.selectFrom("news"), audience));
}

/**
 * Most recently published first, as readers see the dates. The public lists read the
 * (status, [category,] published_at) indexes; editors, who also see articles never published, get those
 * by when they were written among the rest.
 */
export function newestFirst<O>(query: NewsQuery<O>, audience: Audience): NewsQuery<O> {
  const published = audience.includeDrafts ? sql<string>`coalesce(news.published_at, news.created_at)` : sql<string>`news.published_at`;
  return query.orderBy(published, "desc").orderBy("news.id", "desc");
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
  const { limit, offset = 0, category, audience = PUBLIC } = options;
  const key = `latest:${audience.includeDrafts}:${category ?? ""}:${limit}:${offset}`;
  const rows = await executeCompiledOnce(db, key, () => {
    const query = summaries(db, audience);
    return newestFirst(category ? query.where("news.category", "=", category) : query, audience).limit(limit).offset(offset);
  });
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
        newestFirst(
          summaries(db, audience)
            .where("news.category", "=", category)
            .$if(excludeId !== undefined, (query) => query.where("news.id", "!=", excludeId!)),
          audience,
        )
          .limit(limit)
          .as("section"),
      )
      .selectAll(),
  );
  if (!first) return sections;
  const rows = await rest.reduce((query, next) => query.unionAll(next), first).execute();
  // A union keeps no order of its own: each section is sorted again.
  const shown = (row: SummaryRow) => Date.parse(row.published_at ?? row.created_at);
  const byNewest = (a: SummaryRow, b: SummaryRow) => shown(b) - shown(a) || b.id.localeCompare(a.id);
  for (const row of [...rows].sort(byNewest)) sections.get(row.category as Category)?.push(toSummary(row));
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

/** The 4 newest items that have an image and are not video (docs/product.md#lists). */
export async function listSlider(db: DB, audience: Audience = PUBLIC): Promise<NewsSummary[]> {
  const rows = await newestFirst(
    summaries(db, audience)
      .where("news.is_video", "=", 0)
      .where((eb) => eb.or([eb("news.images", "!=", "[]"), eb("news.image_url", "is not", null)])),
    audience,
  )
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
    .orderBy("news.published_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

/** The article's short link beside it (short_links.news_id is unique). */
function shortIdOf(eb: ExpressionBuilder<Database, "news">) {
  return eb.selectFrom("short_links").select("short_links.short_id").whereRef("short_links.news_id", "=", "news.id").as("short_id");
}

function articleRows(db: DB, id: string, audience: Audience) {
  return visibleTo(db.selectFrom("news"), audience).selectAll().select(authorName).where("news.id", "=", id);
}

export async function getArticle(db: DB, id: string, audience: Audience = PUBLIC): Promise<NewsArticle | null> {
  const row = await articleRows(db, id, audience).executeTakeFirst();
  return row ? toArticle(row) : null;
}

/** The article a reader opens, with its short link, in one statement (one round trip on PostgreSQL). */
export async function readArticle(db: DB, id: string, audience: Audience): Promise<{ article: NewsArticle; shortId: string | null } | null> {
  const row = await articleRows(db, id, audience).select(shortIdOf).executeTakeFirst();
  return row ? { article: toArticle(row), shortId: row.short_id } : null;
}

type ArticleRow = Omit<SummaryRow, "excerpt"> & {
  content: string;
  body: string | null;
  image_details: string | null;
  video: string | null;
  updated_at: string | null;
  publish_at: string | null;
};

function toArticle(row: ArticleRow): NewsArticle {
  return {
    ...toSummary({ ...row, excerpt: row.content.slice(0, EXCERPT_CHARS) }),
    content: row.content,
    body: storedBody(row.body, row.content),
    images: parseStringList(row.images),
    imageDetails: parseImageDetails(row.image_details),
    video: row.video || null,
    imageUrl: row.image_url,
    updatedAt: row.updated_at,
    publishAt: row.publish_at,
    byline: row.byline,
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
  const visible = rows.filter((row) => (audience.includeDrafts ? row.status !== "trashed" : row.status === "published"));
  const byId = new Map(visible.map((row) => [row.id, { ...toSummary(row), content: row.content }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A 20-character id, the same shape as the original's document ids. */
export function newArticleId(): string {
  return Array.from(randomBytes(20), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

/**
 * An article's text: with `body` (the editor's document), `content` is stored as its plain text, whatever
 * the caller passed; without it (demo seed, tests of plain text), `content` alone, read as paragraphs.
 */
type ArticleText = { content: string; body?: RichDocument | null };

function storedText({ content, body }: ArticleText): { content: string; body: string | null } {
  return body ? { content: documentPlainText(body), body: JSON.stringify(body) } : { content, body: null };
}

/** The media a row refers to: its images, the legacy image_url, its video and the images placed in its body. */
export function mediaOfRow(row: { images: string; image_url?: string | null; video: string | null; body: string | null }): string[] {
  const inBody = row.body ? documentImages(storedBody(row.body, "")) : [];
  return [...parseStringList(row.images), ...(row.image_url ? [row.image_url] : []), ...(row.video ? [row.video] : []), ...inBody];
}

export type NewArticle = ArticleText & {
  title: string;
  category: Category;
  images?: string[];
  imageDetails?: ImageDetailsMap;
  /** The legacy image address (`image_url`). */
  imageUrl?: string | null;
  video?: string | null;
  status?: NewsStatus;
  /** When a scheduled article goes out (UTC ISO); ignored for any other status. */
  publishAt?: string | null;
  visits?: number;
  authorId?: string | null;
  byline?: string | null;
  createdAt?: Date;
  /** The form submission that asked for it: the same submission never creates two articles. */
  submissionId?: string;
};

/** shortId: null until the article is first published. */
export type CreatedArticle = { id: string; shortId: string | null; createdAt: string; duplicate: boolean };

/** The article a form submission already created, if any. */
async function articleOfSubmission(db: DB, submissionId: string): Promise<CreatedArticle | undefined> {
  const existing = await db
    .selectFrom("news")
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select(["news.id", "news.created_at", "short_links.short_id"])
    .where("news.submission_id", "=", submissionId)
    .executeTakeFirst();
  return existing && { id: existing.id, shortId: existing.short_id, createdAt: existing.created_at, duplicate: true };
}

/**
 * Creates an article, its search entry, its outbox event and, when it is published, its short link, in
 * one transaction. A
 * submission already used returns the article it created: the unique index on submission_id decides,
 * so two identical posts at the same moment (on a server that runs them in parallel) still publish once.
 */
export async function createArticle(db: DB, input: NewArticle): Promise<CreatedArticle> {
  return writeWithEvents(db, async (trx) => {
    const id = newArticleId();
    const createdAt = (input.createdAt ?? new Date()).toISOString();
    const status = input.status ?? "published";
    const publishedAt = status === "published" ? createdAt : null;
    const inserted = await trx
      .insertInto("news")
      .values({
        id,
        title: input.title,
        ...storedText(input),
        category: input.category,
        images: JSON.stringify(input.images ?? []),
        image_details: storedImageDetails(input.imageDetails ?? {}, input.images ?? []),
        image_url: input.imageUrl ?? null,
        video: input.video ?? null,
        is_video: input.video ? 1 : 0,
        status,
        visits: input.visits ?? 0,
        author_id: input.authorId ?? null,
        byline: input.byline ?? null,
        created_at: createdAt,
        updated_at: null,
        published_at: publishedAt,
        publish_at: status === "scheduled" ? (input.publishAt ?? null) : null,
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
    const shortId = status === "published" ? await ensureShortLink(trx, id) : null;
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, null, { id, title: input.title, createdAt, publishedAt, category: input.category, status });
    return { id, shortId, createdAt, duplicate: false };
  });
}

export type ArticleChanges = ArticleText & {
  title: string;
  category: Category;
  status: NewsStatus;
  /** When a scheduled article goes out (UTC ISO); ignored for any other status. */
  publishAt?: string | null;
  /** Change the article only if it still has this author and one of these statuses (permissions.ts editCondition). */
  onlyIf?: { authorId: string; statuses: readonly NewsStatus[] } | null;
  imageUrl: string | null;
  images: string[];
  /** Left out: each image that stays keeps its details. */
  imageDetails?: ImageDetailsMap;
  video: string | null;
  /** Left out: the byline stays as it is. */
  byline?: string | null;
};

/** An article's public state as its row holds it, for its outbox event. */
export function articleState(
  id: string,
  row: { title: string; category: string; status: NewsStatus; created_at: string; published_at: string | null },
): ArticleState {
  const category = isCategory(row.category) ? row.category : "miscellaneous";
  return { id, title: row.title, createdAt: row.created_at, publishedAt: row.published_at, category, status: row.status };
}

/**
 * Applies an edit, keeps the version it replaces as a revision replaced by `save`, and records it in the
 * outbox; returns the media URLs no article or revision uses any more (to delete once committed), or
 * null when there is no such article (or it is in the trash, or an autosave finds no draft).
 */
export async function updateArticle(db: DB, id: string, changes: ArticleChanges, save: Save = UNNAMED_SAVE): Promise<{ unusedMedia: string[] } | null> {
  return writeWithEvents(db, async (trx) => {
    const current = await trx
      .selectFrom("news")
      .select(["images", "image_details", "video", "body", "published_at", "title", "category", "status", "created_at"])
      .where("id", "=", id)
      // An autosave writes into a draft only: one published (or sent for review) meanwhile is left alone.
      .where("status", save.kind === "autosave" ? "=" : "!=", save.kind === "autosave" ? "draft" : "trashed")
      // Concurrent saves of one article take turns, so each keeps the version it really replaced.
      .$if(dialectName(trx) === "postgres", (query) => query.forUpdate())
      .executeTakeFirst();
    if (!current) return null;
    const now = (save.at ?? new Date()).toISOString();
    const publishedAt = current.published_at ?? (changes.status === "published" ? now : null);
    await keepRevision(trx, id, save, now);
    const updated = await trx
      .updateTable("news")
      .set({
        title: changes.title,
        ...storedText(changes),
        category: changes.category,
        status: changes.status,
        image_url: changes.imageUrl,
        images: JSON.stringify(changes.images),
        image_details: storedImageDetails(changes.imageDetails ?? parseImageDetails(current.image_details), changes.images),
        video: changes.video,
        is_video: changes.video ? 1 : 0,
        byline: changes.byline,
        updated_at: now,
        published_at: publishedAt,
        publish_at: changes.status === "scheduled" ? (changes.publishAt ?? null) : null,
        // Submitting for review again closes the editor's last note.
        ...(changes.status === "review" ? { review_note: null } : {}),
      })
      .where("id", "=", id)
      .$if(Boolean(changes.onlyIf), (qb) => qb.where("author_id", "=", changes.onlyIf!.authorId).where("status", "in", changes.onlyIf!.statuses))
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new AppError("forbidden", { message: messages.articleNotYours });
    if (changes.status === "published") await ensureShortLink(trx, id);
    await syncSearchIndex(trx, id);
    const after = { id, title: changes.title, createdAt: current.created_at, publishedAt, category: changes.category, status: changes.status };
    await recordArticleEvent(trx, articleState(id, current), after);
    const usedBefore = mediaOfRow(current);
    const usedAfter = new Set([...changes.images, ...(changes.video ? [changes.video] : []), ...(changes.body ? documentImages(changes.body) : [])]);
    return { unusedMedia: await mediaOnlyUsedBy(trx, id, usedBefore.filter((url) => !usedAfter.has(url))) };
  });
}

/**
 * The URLs among `urls` that no article but `id` and no kept revision refers to: only their files may
 * be removed. Names stored before issue 12 could be shared by two articles.
 */
async function mediaOnlyUsedBy(db: DB, id: string, urls: string[]): Promise<string[]> {
  const own: string[] = [];
  for (const url of urls) {
    const other = await db
      .selectFrom("news")
      .select("id")
      .where("id", "!=", id)
      .where((eb) => eb.or([eb("video", "=", url), eb("image_url", "=", url), eb("images", "like", `%${JSON.stringify(url)}%`), eb("body", "like", `%${JSON.stringify(url)}%`)]))
      .executeTakeFirst();
    if (!other && !(await revisionUses(db, url))) own.push(url);
  }
  return own;
}

/**
 * Deletes an article for good (its short link and its revisions go with it) and records it in the
 * outbox; returns the media URLs only it and its revisions used, or null when there is none.
 */
export async function deleteArticle(db: DB, id: string): Promise<{ media: string[] } | null> {
  return writeWithEvents(db, async (trx) => {
    const row = await trx
      .selectFrom("news")
      .select(["images", "video", "body", "category", "title", "created_at", "published_at", "status"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    const revisionMedia = await revisionMediaOf(trx, id);
    await deleteRevisionsOf(trx, id);
    await trx.deleteFrom("short_links").where("news_id", "=", id).execute();
    await trx.deleteFrom("news").where("id", "=", id).execute();
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, articleState(id, row), null);
    const media = new Set([...mediaOfRow(row), ...revisionMedia]);
    return { media: await mediaOnlyUsedBy(trx, id, [...media]) };
  });
}

/** Every media URL an article or a kept revision refers to (images, the legacy image_url, video, images in the body), for the sweep at start. */
export async function listReferencedMedia(db: DB): Promise<string[]> {
  const rows = await db.selectFrom("news").select(["images", "image_url", "video", "body"]).execute();
  const current = rows.flatMap(mediaOfRow);
  return [...current, ...(await listRevisionMedia(db))];
}
