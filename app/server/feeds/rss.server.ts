import { element, escapeXml, rfc822Date, XML_DECLARATION } from "./xml.server";

export const RSS_ITEM_COUNT = 30;

export type RssChannel = { title: string; link: string; description: string; selfUrl: string; language: string };
export type RssImage = { url: string; type: string };
export type RssItem = {
  title: string;
  link: string;
  /** The item's lasting address when `link` may change (an article's slug): `/news/{id}`, which leads to it. */
  guid?: string;
  description: string;
  publishedAt: string;
  category: string;
  image: RssImage | null;
  /** The byline: Dublin Core's creator takes a name (RSS's own `author` wants an email address). */
  creator?: string | null;
};

function buildItem(item: RssItem): string {
  const pubDate = rfc822Date(item.publishedAt);
  return [
    "<item>",
    element("title", item.title),
    element("link", item.link),
    `<guid isPermaLink="true">${escapeXml(item.guid ?? item.link)}</guid>`,
    element("description", item.description),
    pubDate ? element("pubDate", pubDate) : "",
    element("category", item.category),
    item.creator ? element("dc:creator", item.creator) : "",
    item.image ? `<enclosure url="${escapeXml(item.image.url)}" length="0" type="${escapeXml(item.image.type)}"/>` : "",
    "</item>",
  ].join("");
}

/** An RSS 2.0 document; items are given newest first. */
export function buildRss(channel: RssChannel, items: readonly RssItem[]): string {
  const lastBuildDate = rfc822Date(items[0]?.publishedAt);
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    element("title", channel.title),
    element("link", channel.link),
    element("description", channel.description),
    element("language", channel.language),
    `<atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...(lastBuildDate ? [element("lastBuildDate", lastBuildDate)] : []),
    ...items.slice(0, RSS_ITEM_COUNT).map(buildItem),
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
