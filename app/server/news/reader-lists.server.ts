import { CATEGORIES, PICK_CATEGORIES, type Category } from "~/lib/categories";
import { BREAKING_LIST_SIZE, BREAKING_TICKER_SIZE, type BreakingItem } from "~/lib/breaking";
import { LATEST_NEWS_COUNT, RELATED_COUNT } from "~/lib/constants";
import type { NewsSummary, SidebarLists } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import type { ReadCache } from "~/server/platform/read-cache.server";
import type { Audience } from "~/lib/audience";
import { listLatest, listLatestByCategory, listMostRead, listSlider } from "./articles-read.server";
import { listSharingTopics } from "./topics.server";

/*
 * The lists reader pages repeat whatever the page, read once for every reader who sees published
 * articles only and kept in `cache` until the next change (docs/decisions/019). Editors, who see
 * drafts, read them afresh. A page then reads only what is its own (its article, its category page).
 */

/** The public breaking list, newest first. */
export async function listBreaking(db: DB, limit = BREAKING_LIST_SIZE): Promise<BreakingItem[]> {
  const items = await listLatest(db, { category: "breaking", limit });
  return items.map(({ id, title, createdAt, publishedAt }) => ({ id, title, publishedAt: publishedAt ?? createdAt }));
}

/**
 * Visits change the most-read order without an outbox event (they would empty every page cache on
 * every read): the list may lag the counts by this long, as a cached page does.
 */
export const MOST_READ_MAX_AGE_MS = 30_000;

function shared<T>(cache: ReadCache, audience: Audience, key: string, read: () => Promise<T>, maxAgeMs?: number): Promise<T> {
  return audience.includeDrafts ? read() : cache.get(key, read, maxAgeMs);
}

export function breakingTicker(db: DB, cache: ReadCache): Promise<BreakingItem[]> {
  return cache.get("breaking-ticker", () => listBreaking(db, BREAKING_TICKER_SIZE));
}

export async function sidebarLists(db: DB, cache: ReadCache, audience: Audience): Promise<SidebarLists> {
  const [latest, mostRead] = await Promise.all([
    shared(cache, audience, "latest", () => listLatest(db, { limit: LATEST_NEWS_COUNT, audience })),
    shared(cache, audience, "most-read", () => listMostRead(db, undefined, audience), MOST_READ_MAX_AGE_MS),
  ]);
  return { latest, mostRead };
}

export function sliderItems(db: DB, cache: ReadCache, audience: Audience): Promise<NewsSummary[]> {
  return shared(cache, audience, "slider", () => listSlider(db, audience));
}

export function latestByCategory(db: DB, cache: ReadCache, categories: readonly Category[], limit: number, audience: Audience) {
  return shared(cache, audience, `sections:${categories.join(",")}:${limit}`, () => listLatestByCategory(db, categories, limit, audience));
}

/** Home's sections: the newest `limit` articles of each category, in the categories' order; one array while kept. */
export function homeSections(db: DB, cache: ReadCache, limit: number, audience: Audience): Promise<{ category: Category; items: NewsSummary[] }[]> {
  return shared(cache, audience, `home-sections:${limit}`, async () => {
    const latest = await latestByCategory(db, cache, CATEGORIES, limit, audience);
    return CATEGORIES.map((category) => ({ category, items: latest.get(category) ?? [] }));
  });
}

/**
 * The newest article of each picks category that is neither the one being read nor one of its related
 * articles (those come from its own category): the article and its related are at most
 * RELATED_COUNT + 1 of a category, so one more than that holds the pick.
 */
export async function picksBeside(
  db: DB,
  cache: ReadCache,
  article: RelatedSource,
  audience: Audience,
): Promise<NewsSummary[]> {
  const [sections, related] = await Promise.all([
    latestByCategory(db, cache, PICK_CATEGORIES, RELATED_COUNT + 2, audience),
    relatedTo(db, cache, article, audience),
  ]);
  const shown = new Set([article.id, ...related.map((item) => item.id)]);
  return PICK_CATEGORIES.flatMap((category) => (sections.get(category) ?? []).filter((item) => !shown.has(item.id)).slice(0, 1));
}

/** What related articles are chosen by: the article, its category, and whether it has topics. */
export type RelatedSource = { id: string; category: Category; topics?: readonly unknown[] };

/**
 * RELATED_COUNT articles: first the published ones sharing most of the article's topics (read once per
 * article while kept), then the newest of its category but itself (one list per category, one more
 * than shown holds them).
 */
export async function relatedTo(db: DB, cache: ReadCache, article: RelatedSource, audience: Audience): Promise<NewsSummary[]> {
  const [byTopics, newest] = await Promise.all([
    article.topics?.length ? shared(cache, audience, `related-topics:${article.id}`, () => listSharingTopics(db, article.id, RELATED_COUNT)) : [],
    shared(cache, audience, `related:${article.category}`, () => listLatest(db, { category: article.category, limit: RELATED_COUNT + 1, audience })),
  ]);
  const chosen = new Set(byTopics.map((item) => item.id));
  const byCategory = newest.filter((item) => item.id !== article.id && !chosen.has(item.id));
  return [...byTopics, ...byCategory].slice(0, RELATED_COUNT);
}
