import { element, w3cDatetime, XML_DECLARATION } from "./xml.server";

/** Google News sitemaps list only articles published in the last two days, at most 1,000 of them. */
export const NEWS_SITEMAP_WINDOW_MS = 48 * 60 * 60 * 1000;
export const NEWS_SITEMAP_LIMIT = 1_000;

const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const NEWS_NAMESPACE = "http://www.google.com/schemas/sitemap-news/0.9";

/** `keywords`: the article's topics' names (none: no element). */
export type NewsSitemapItem = { loc: string; title: string; publishedAt: string; keywords?: readonly string[] };
export type Publication = { name: string; language: string };

/** Items with an unreadable publication date are left out: the date is required. */
export function buildNewsSitemap(items: readonly NewsSitemapItem[], publication: Publication): string {
  const urls = items.slice(0, NEWS_SITEMAP_LIMIT).flatMap((item) => {
    const published = w3cDatetime(item.publishedAt);
    if (!published) return [];
    return [
      `<url>${element("loc", item.loc)}<news:news><news:publication>${element("news:name", publication.name)}` +
        `${element("news:language", publication.language)}</news:publication>` +
        `${element("news:publication_date", published)}${element("news:title", item.title)}` +
        `${item.keywords?.length ? element("news:keywords", item.keywords.join(", ")) : ""}</news:news></url>`,
    ];
  });
  return [
    XML_DECLARATION,
    `<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:news="${NEWS_NAMESPACE}">`,
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
