import { CATEGORIES, PICK_CATEGORIES, type Category } from "~/lib/categories";
import { BREAKING_LIST_SIZE, BREAKING_TICKER_SIZE, type BreakingItem } from "~/lib/breaking";
import { LATEST_NEWS_COUNT, RELATED_COUNT } from "~/lib/constants";
import type { NewsSummary, SidebarLists } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import type { ReadCache } from "~/server/platform/read-cache.server";
import { listCategoryPage, listLatest, listLatestByCategory, listMostRead } from "./articles-read.server";
import { categoryPins, frontPageSlider, withPins } from "./front-page.server";
import { listSharingTopics } from "./topics.server";

/*
 * The lists reader pages repeat whatever the page, read once and kept in `cache` until the next change
 * (docs/decisions/019). Every public page shows published articles only, whoever is signed in
 * (decision 031). A page then reads only what is its own (its article, its category page).
 */

/** The public breaking list, newest first. */
export async function listBreaking(db: DB, limit = BREAKING_LIST_SIZE): Promise<BreakingItem[]> {
  const items = await listLatest(db, { category: "breaking", limit });
  return items.map(({ id, title, slug, createdAt, publishedAt, live }) => ({
    id,
    title,
    slug,
    publishedAt: publishedAt ?? createdAt,
    ...(live ? { live } : {}),
  }));
}

/**
 * Visits change the most-read order without an outbox event (they would empty every page cache on
 * every read): the list may lag the counts by this long, as a cached page does.
 */
export const MOST_READ_MAX_AGE_MS = 30_000;

export function breakingTicker(db: DB, cache: ReadCache): Promise<BreakingItem[]> {
  return cache.get("breaking-ticker", () => listBreaking(db, BREAKING_TICKER_SIZE));
}

export async function sidebarLists(db: DB, cache: ReadCache): Promise<SidebarLists> {
  const [latest, mostRead] = await Promise.all([
    cache.get("latest", () => listLatest(db, { limit: LATEST_NEWS_COUNT })),
    cache.get("most-read", () => listMostRead(db), MOST_READ_MAX_AGE_MS),
  ]);
  return { latest, mostRead };
}

/** The slider: the slides editors chose, the rest by the rule (front-page.server.ts). */
export function sliderItems(db: DB, cache: ReadCache): Promise<NewsSummary[]> {
  return cache.get("slider", () => frontPageSlider(db));
}

/** The story pinned on top of each category, if any. */
export function pinnedStories(db: DB, cache: ReadCache): Promise<Map<Category, NewsSummary>> {
  return cache.get("category-pins", () => categoryPins(db));
}

export function latestByCategory(db: DB, cache: ReadCache, categories: readonly Category[], limit: number) {
  return cache.get(`sections:${categories.join(",")}:${limit}`, () => listLatestByCategory(db, categories, limit));
}

/** Home's sections: the newest `limit` articles of each category, its pinned story first, in the categories' order; one array while kept. */
export function homeSections(
  db: DB,
  cache: ReadCache,
  limit: number,
): Promise<{ category: Category; items: NewsSummary[] }[]> {
  return cache.get(`home-sections:${limit}`, async () => {
    const [latest, pins] = await Promise.all([
      latestByCategory(db, cache, CATEGORIES, limit + 1),
      pinnedStories(db, cache),
    ]);
    const sections = withPins(latest, pins, limit);
    return CATEGORIES.map((category) => ({ category, items: sections.get(category) ?? [] }));
  });
}

/** One page of a category as readers see it, its pinned story heading the first. */
export async function categoryPage(db: DB, cache: ReadCache, category: Category, page: number, pageSize: number) {
  const pins = await pinnedStories(db, cache);
  return listCategoryPage(db, category, page, pageSize, pins.get(category) ?? null);
}

/**
 * The newest article of each picks category that is neither the one being read nor one of its related
 * articles (those come from its own category): the article and its related are at most
 * RELATED_COUNT + 1 of a category, so one more than that holds the pick.
 */
export async function picksBeside(db: DB, cache: ReadCache, article: RelatedSource): Promise<NewsSummary[]> {
  const [sections, related] = await Promise.all([
    latestByCategory(db, cache, PICK_CATEGORIES, RELATED_COUNT + 2),
    relatedTo(db, cache, article),
  ]);
  const shown = new Set([article.id, ...related.map((item) => item.id)]);
  return PICK_CATEGORIES.flatMap((category) =>
    (sections.get(category) ?? []).filter((item) => !shown.has(item.id)).slice(0, 1),
  );
}

/** What related articles are chosen by: the article, its category, and whether it has topics. */
export type RelatedSource = { id: string; category: Category; topics?: readonly unknown[] };

/**
 * RELATED_COUNT articles: first the published ones sharing most of the article's topics (read once per
 * article while kept), then the newest of its category but itself (one list per category, one more
 * than shown holds them).
 */
export async function relatedTo(db: DB, cache: ReadCache, article: RelatedSource): Promise<NewsSummary[]> {
  const [byTopics, newest] = await Promise.all([
    article.topics?.length
      ? cache.get(`related-topics:${article.id}`, () => listSharingTopics(db, article.id, RELATED_COUNT))
      : [],
    cache.get(`related:${article.category}`, () =>
      listLatest(db, { category: article.category, limit: RELATED_COUNT + 1 }),
    ),
  ]);
  const chosen = new Set(byTopics.map((item) => item.id));
  const byCategory = newest.filter((item) => item.id !== article.id && !chosen.has(item.id));
  return [...byTopics, ...byCategory].slice(0, RELATED_COUNT);
}
