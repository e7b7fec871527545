import { parseStringList } from "~/lib/json";
import { parseImageDetails } from "~/lib/image-details";
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { creditOf } from "~/lib/bylines";
import { isCategory, type Category } from "~/lib/categories";
import { MOST_READ_FETCHED, SLIDER_COUNT } from "~/lib/constants";
import type { FocalPoint } from "~/lib/media-library";
import type { NewsArticle, NewsStatus, NewsSummary } from "~/lib/news";
import { storedBody } from "~/lib/rich-text/document";
import { PUBLIC, type Audience } from "~/lib/audience";
import type { DB } from "~/server/db/db.server";
import type { Database } from "~/server/db/schema";
import { executeCompiledOnce, executeCompiledWith } from "~/server/db/compiled-once.server";
import { storyOfRow } from "./story-fields.server";

/* Reading articles: the lists reader pages and the dashboard show, and one article with its text. Writes: articles-write.server.ts. */

const EXCERPT_CHARS = 160;

type NewsQuery<O> = SelectQueryBuilder<Database, "news", O>;

function summaryColumns<O>(query: NewsQuery<O>) {
  return query.select([
    "news.id",
    "news.title",
    // A standfirst, when the story has one, is what its card says of it.
    sql<string>`coalesce(news.standfirst, substr(news.content, 1, ${sql.lit(EXCERPT_CHARS)}))`.as("excerpt"),
    "news.slug",
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
    imageFocus,
    liveNow,
  ]);
}

/** 1 while the story's live coverage is open (decision 040): the 'مباشر' mark on its card. */
function liveNow(eb: ExpressionBuilder<Database, "news">) {
  return eb
    .selectFrom("live_coverage")
    .select(sql<number>`1`.as("live"))
    .whereRef("live_coverage.news_id", "=", "news.id")
    .where("live_coverage.state", "=", "live")
    .as("live");
}

/** The author's name, read beside each article (a scalar subquery keeps every list's plan on `news`). */
function authorName(eb: ExpressionBuilder<Database, "news">) {
  return eb.selectFrom("user").select("user.name").whereRef("user.id", "=", "news.author_id").as("author_name");
}

/**
 * The cover's focal point as "x y", when the library has one for it (decision 036). Stored image URLs
 * hold no LIKE wildcard; the partial index keeps the scan to images with a focal point.
 */
function imageFocus(eb: ExpressionBuilder<Database, "news">) {
  return eb
    .selectFrom("media")
    .select(sql<string>`media.focal_x || ' ' || media.focal_y`.as("focus"))
    .where("media.focal_x", "is not", null)
    .where(sql<boolean>`news.images like '["' || media.url || '"%'`)
    .limit(1)
    .as("image_focus");
}

/** A focal point read back from imageFocus's "x y". */
export function focusOf(text: string | null | undefined): FocalPoint | undefined {
  const [x, y] = (text ?? "").split(" ").map(Number);
  return x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}

/** The poster the article's video was given on this article, when one was set (video_posters). */
function videoPoster(eb: ExpressionBuilder<Database, "news">) {
  return eb
    .selectFrom("video_posters")
    .select("video_posters.poster_url")
    .whereRef("video_posters.news_id", "=", "news.id")
    .whereRef("video_posters.video_url", "=", "news.video")
    .as("video_poster");
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
  slug: string | null;
  author_name: string | null;
  image_focus?: string | null;
  live?: number | null;
};

export function toSummary(row: SummaryRow): NewsSummary {
  const focus = focusOf(row.image_focus);
  return {
    ...(focus ? { imageFocus: focus } : {}),
    ...(row.live ? { live: true as const } : {}),
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
    slug: row.slug,
  };
}

function visibleTo<O>(query: NewsQuery<O>, audience: Audience): NewsQuery<O> {
  // The trash has its own view (trash.server.ts): no list or page shows what is in it.
  return audience.includeDrafts
    ? query.where("news.status", "!=", "trashed")
    : query.where("news.status", "=", "published");
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
  const published = audience.includeDrafts
    ? sql<string>`coalesce(news.published_at, news.created_at)`
    : sql<string>`news.published_at`;
  return query.orderBy(published, "desc").orderBy("news.id", "desc");
}

/** The newest published, of one category if given, but `excludeId` (a story pinned on top of it). */
export async function listLatest(
  db: DB,
  options: {
    limit: number;
    offset?: number;
    category?: Category;
    excludeId?: string;
  },
): Promise<NewsSummary[]> {
  const { limit, offset = 0, category, excludeId } = options;
  const key = `latest:${category ?? ""}:${limit}:${offset}:${excludeId ?? ""}`;
  const rows = await executeCompiledOnce(db, key, () => {
    let query = summaries(db, PUBLIC);
    if (category) query = query.where("news.category", "=", category);
    if (excludeId !== undefined) query = query.where("news.id", "!=", excludeId);
    return newestFirst(query, PUBLIC).limit(limit).offset(offset);
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
  excludeId?: string,
): Promise<Map<Category, NewsSummary[]>> {
  const sections = new Map<Category, NewsSummary[]>(categories.map((category) => [category, []]));
  const [first, ...rest] = categories.map((category) =>
    db
      .selectFrom(
        newestFirst(
          summaries(db, PUBLIC)
            .where("news.category", "=", category)
            .$if(excludeId !== undefined, (query) => query.where("news.id", "!=", excludeId!)),
          PUBLIC,
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

/**
 * One page of a category, plus whether another page follows. A story pinned on top of the category
 * (front-page.server.ts) heads its first page and is left out of the rest, so the pages neither skip
 * nor repeat a story.
 */
export async function listCategoryPage(
  db: DB,
  category: Category,
  page: number,
  pageSize: number,
  pinned: NewsSummary | null = null,
): Promise<{ items: NewsSummary[]; hasMore: boolean }> {
  const shift = pinned ? 1 : 0;
  const first = (page - 1) * pageSize - (page > 1 ? shift : 0);
  const count = page === 1 ? pageSize - shift : pageSize;
  const rows = await listLatest(db, { category, limit: count + 1, offset: first, excludeId: pinned?.id });
  const items = rows.slice(0, count);
  return { items: page === 1 && pinned ? [pinned, ...items] : items, hasMore: rows.length > count };
}

/**
 * The newest `limit` published that have a picture and are not video (docs/product.md#lists), and not
 * advertisements: what fills the slider's slots no editor chose.
 */
export async function listSlider(db: DB, limit: number = SLIDER_COUNT): Promise<NewsSummary[]> {
  const rows = await newestFirst(
    summaries(db, PUBLIC)
      .where("news.is_video", "=", 0)
      .where("news.category", "!=", "advertisement")
      .where((eb) => eb.or([eb("news.images", "!=", "[]"), eb("news.image_url", "is not", null)])),
    PUBLIC,
  )
    .limit(limit)
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
  return eb
    .selectFrom("short_links")
    .select("short_links.short_id")
    .whereRef("short_links.news_id", "=", "news.id")
    .as("short_id");
}

function articleRows(db: DB, id: string, audience: Audience) {
  return visibleTo(db.selectFrom("news"), audience)
    .selectAll()
    .select([authorName, imageFocus, videoPoster])
    .where("news.id", "=", id);
}

export async function getArticle(db: DB, id: string, audience: Audience = PUBLIC): Promise<NewsArticle | null> {
  const row = await articleRows(db, id, audience).executeTakeFirst();
  return row ? toArticle(row) : null;
}

/** The article a reader opens, with its short link, in one statement (one round trip on PostgreSQL). */
export async function readArticle(
  db: DB,
  id: string,
  audience: Audience,
): Promise<{ article: NewsArticle; shortId: string | null } | null> {
  const [row] = await executeCompiledWith(
    db,
    `article:${audience.includeDrafts ? "editors" : "public"}`,
    [id],
    (standIn) => articleRows(db, standIn, audience).select(shortIdOf),
  );
  return row ? { article: toArticle(row), shortId: row.short_id } : null;
}

type ArticleRow = Omit<SummaryRow, "excerpt"> & {
  content: string;
  body: string | null;
  image_details: string | null;
  video: string | null;
  updated_at: string | null;
  publish_at: string | null;
  standfirst: string | null;
  share_title: string | null;
  share_description: string | null;
  share_image: string | null;
  noindex: number;
  version: number;
  video_poster?: string | null;
};

function toArticle(row: ArticleRow): NewsArticle {
  return {
    ...(row.video_poster ? { videoPoster: row.video_poster } : {}),
    ...toSummary({ ...row, excerpt: row.standfirst ?? row.content.slice(0, EXCERPT_CHARS) }),
    content: row.content,
    body: storedBody(row.body, row.content),
    images: parseStringList(row.images),
    imageDetails: parseImageDetails(row.image_details),
    video: row.video || null,
    imageUrl: row.image_url,
    updatedAt: row.updated_at,
    publishAt: row.publish_at,
    byline: row.byline,
    story: storyOfRow(row),
    version: Number(row.version),
  };
}

/** The published articles among `ids`, with their full text, in the order of `ids`. */
export async function listArticlesByIds(db: DB, ids: string[]): Promise<(NewsSummary & { content: string })[]> {
  if (ids.length === 0) return [];
  // Visibility is checked here rather than in SQL: with a status condition beside `id in (…)`,
  // SQLite's planner walks a status index over every published article instead of the primary key.
  const rows = await summaryColumns(db.selectFrom("news")).select("news.content").where("news.id", "in", ids).execute();
  const visible = rows.filter((row) => row.status === "published");
  const byId = new Map(visible.map((row) => [row.id, { ...toSummary(row), content: row.content }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
