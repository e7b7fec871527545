import { contentTypeOf } from "~/server/media/storage.server";
import { CATEGORIES, categoryLabel, categoryPath, feedPath, type Category } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { topicMessages } from "~/lib/newsroom-messages";
import { articleIdPath, articlePath, truncate } from "~/lib/news";
import type { DB } from "../db/db.server";
import {
  countPublishedArticles,
  lastModifiedByCategory,
  listFeedArticles,
  listPublishedSince,
  listSitemapArticles,
  type FeedArticle,
} from "./feed-queries.server";
import { buildNewsSitemap, NEWS_SITEMAP_LIMIT, NEWS_SITEMAP_WINDOW_MS } from "./news-sitemap.server";
import { buildRss, RSS_ITEM_COUNT, type RssImage } from "./rss.server";
import {
  buildSitemapIndex,
  buildUrlSet,
  SITEMAP_URL_LIMIT,
  sitemapPageCount,
  type SitemapEntry,
} from "./sitemap.server";
import { absoluteUrl } from "~/lib/seo";
import { INFO_PAGE_KEYS } from "~/lib/site-settings";
import { readSiteSettings, type StoredSettings } from "~/server/site-settings/site-settings.server";
import { topicFeedPath, topicPath, type Topic } from "~/lib/topics";
import { listTopicsForSitemap, topicNamesByArticle } from "~/server/news/topics.server";

/** The site's settings as the caller holds them (a route: from the read cache); read afresh when absent. */
type FeedSite = { site?: StoredSettings };

function siteOf(db: DB, options: FeedSite): Promise<StoredSettings> {
  return options.site ? Promise.resolve(options.site) : readSiteSettings(db);
}

/** Composes the feeds from the database; every function returns the finished document. */

const FEED_LANGUAGE = "ar";
const DESCRIPTION_CHARS = 200;

function newest(timestamps: readonly (string | undefined)[]): string | undefined {
  return timestamps
    .filter((t): t is string => t !== undefined)
    .sort()
    .at(-1);
}

/** Home, the category pages and the information pages, each dated by its newest content. */
async function pageEntries(db: DB, baseUrl: string, site: StoredSettings): Promise<SitemapEntry[]> {
  const byCategory = await lastModifiedByCategory(db);
  const siteLastModified = newest([...Object.values(byCategory), site.updatedAt ?? undefined]) ?? null;
  return [
    { loc: absoluteUrl(baseUrl, "/"), lastModified: siteLastModified },
    ...CATEGORIES.map((category) => ({
      loc: absoluteUrl(baseUrl, categoryPath(category)),
      lastModified: byCategory[category] ?? siteLastModified,
    })),
    // The information pages change with the settings, and only then.
    ...INFO_PAGE_KEYS.map((key) => ({ loc: absoluteUrl(baseUrl, `/${key}`), lastModified: site.updatedAt })),
    // The topics with published articles, each dated by its newest.
    ...(await listTopicsForSitemap(db)).map((topic) => ({
      loc: absoluteUrl(baseUrl, topicPath(topic.slug)),
      lastModified: topic.lastModified,
    })),
  ];
}

function sitemapPageUrl(baseUrl: string, page: number): string {
  return absoluteUrl(baseUrl, `/sitemap.xml?page=${page}`);
}

/**
 * The whole sitemap when it fits in `limit` URLs, otherwise (page null) an index of its pages.
 * Returns null for a page that does not exist.
 */
export async function sitemapXml(
  db: DB,
  options: { baseUrl: string; page: number | null; limit?: number } & FeedSite,
): Promise<string | null> {
  const limit = options.limit ?? SITEMAP_URL_LIMIT;
  const pages = await pageEntries(db, options.baseUrl, await siteOf(db, options));
  const pageCount = sitemapPageCount(pages.length + (await countPublishedArticles(db)), limit);
  if (options.page === null && pageCount > 1) {
    return buildSitemapIndex(Array.from({ length: pageCount }, (_, i) => sitemapPageUrl(options.baseUrl, i + 1)));
  }
  const page = options.page ?? 1;
  if (page < 1 || page > pageCount) return null;
  const start = (page - 1) * limit;
  const pagesHere = pages.slice(start, start + limit);
  const articleSlots = limit - pagesHere.length;
  const articles =
    articleSlots > 0 ? await listSitemapArticles(db, Math.max(0, start - pages.length), articleSlots) : [];
  return buildUrlSet([
    ...pagesHere,
    ...articles.map((article) => ({
      loc: absoluteUrl(options.baseUrl, articlePath(article.id, article.slug)),
      lastModified: article.lastModified,
    })),
  ]);
}

export async function newsSitemapXml(db: DB, options: { baseUrl: string; now?: Date } & FeedSite): Promise<string> {
  const { settings } = await siteOf(db, options);
  const since = new Date((options.now ?? new Date()).getTime() - NEWS_SITEMAP_WINDOW_MS);
  const articles = await listPublishedSince(db, since, NEWS_SITEMAP_LIMIT);
  const keywords = await topicNamesByArticle(
    db,
    articles.map((article) => article.id),
  );
  return buildNewsSitemap(
    articles.map((article) => ({
      loc: absoluteUrl(options.baseUrl, articlePath(article.id, article.slug)),
      title: article.title,
      publishedAt: article.publishedAt,
      keywords: keywords.get(article.id) ?? [],
    })),
    { name: settings.name, language: FEED_LANGUAGE },
  );
}

/** The image as an enclosure, typed by its extension; an image of unknown type is left out. */
function enclosure(baseUrl: string, image: string | null): RssImage | null {
  if (!image) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(image, "http://localhost").pathname);
  } catch {
    return null;
  }
  const type = contentTypeOf(pathname);
  return type.startsWith("image/") ? { url: absoluteUrl(baseUrl, image), type } : null;
}

function rssItem(baseUrl: string, article: FeedArticle) {
  return {
    title: article.title,
    link: absoluteUrl(baseUrl, articlePath(article.id, article.slug)),
    // A slug an editor changes must not make the item new to feed readers.
    guid: absoluteUrl(baseUrl, articleIdPath(article.id)),
    description: article.isStandfirst ? article.contentStart : truncate(article.contentStart, DESCRIPTION_CHARS),
    publishedAt: article.publishedAt,
    category: categoryLabel(article.category),
    image: enclosure(baseUrl, article.image),
    creator: article.credit?.name ?? null,
  };
}

/** The site's feed, one category's, or one topic's. */
export async function rssXml(
  db: DB,
  options: { baseUrl: string; category?: Category; topic?: Topic } & FeedSite,
): Promise<string> {
  const { baseUrl, category, topic } = options;
  const [articles, { settings }] = await Promise.all([
    listFeedArticles(db, { limit: RSS_ITEM_COUNT, category, topicId: topic?.id }),
    siteOf(db, options),
  ]);
  const siteName = settings.name;
  if (topic) {
    const channel = {
      title: `${topic.name} | ${siteName}`,
      link: absoluteUrl(baseUrl, topicPath(topic.slug)),
      description: `${topicMessages.feedDescription} «${topic.name}» - ${siteName}`,
    };
    return buildRss(
      { ...channel, language: FEED_LANGUAGE, selfUrl: absoluteUrl(baseUrl, topicFeedPath(topic.slug)) },
      articles.map((article) => rssItem(baseUrl, article)),
    );
  }
  const channel = category
    ? {
        title: `${categoryLabel(category)} | ${siteName}`,
        link: absoluteUrl(baseUrl, categoryPath(category)),
        description: `${messages.feedCategoryDescription} «${categoryLabel(category)}» - ${siteName}`,
      }
    : {
        title: siteName,
        link: absoluteUrl(baseUrl, "/"),
        description: settings.description || settings.tagline || siteName,
      };
  return buildRss(
    { ...channel, language: FEED_LANGUAGE, selfUrl: absoluteUrl(baseUrl, feedPath(category)) },
    articles.map((article) => rssItem(baseUrl, article)),
  );
}
