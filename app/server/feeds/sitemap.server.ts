import { element, w3cDatetime, XML_DECLARATION } from "./xml.server";

/** The sitemaps.org protocol's cap on URLs per file; past it the sitemap becomes an index of pages. */
export const SITEMAP_URL_LIMIT = 50_000;

const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** lastModified is a stored timestamp; an unreadable one leaves the entry without <lastmod>. */
export type SitemapEntry = { loc: string; lastModified: string | null };

export function sitemapPageCount(urlCount: number, limit: number): number {
  return Math.max(1, Math.ceil(urlCount / limit));
}

export function buildUrlSet(entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = w3cDatetime(entry.lastModified);
    return `<url>${element("loc", entry.loc)}${lastmod ? element("lastmod", lastmod) : ""}</url>`;
  });
  return [XML_DECLARATION, `<urlset xmlns="${SITEMAP_NAMESPACE}">`, ...urls, "</urlset>", ""].join("\n");
}

export function buildSitemapIndex(pageLocs: readonly string[]): string {
  const sitemaps = pageLocs.map((loc) => `<sitemap>${element("loc", loc)}</sitemap>`);
  return [XML_DECLARATION, `<sitemapindex xmlns="${SITEMAP_NAMESPACE}">`, ...sitemaps, "</sitemapindex>", ""].join(
    "\n",
  );
}
