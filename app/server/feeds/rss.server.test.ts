import { describe, expect, it } from "vitest";
import {
  ATOM_NAMESPACE,
  HOSTILE_TITLE,
  HOSTILE_TITLE_AS_READ,
  list,
  parseXml,
  RFC_822_DATE,
} from "../../../tests/support/xml";
import { buildRss, RSS_ITEM_COUNT, type RssItem } from "./rss.server";

const channel = {
  title: "أخبار الشمال",
  link: "https://akhbar.example/",
  description: "وصف",
  selfUrl: "https://akhbar.example/rss.xml",
  language: "ar",
};

function item(n: number, overrides: Partial<RssItem> = {}): RssItem {
  return {
    title: `خبر ${n}`,
    link: `https://akhbar.example/news/${n}`,
    description: `نص ${n}`,
    publishedAt: "2026-11-22T10:00:00.000Z",
    category: "أخبار محلية",
    image: null,
    ...overrides,
  };
}

describe("buildRss", () => {
  it("writes an RSS 2.0 channel with its self link and items", () => {
    const doc = parseXml(
      buildRss(channel, [
        item(1, { image: { url: "https://akhbar.example/media/news-images/a.webp", type: "image/webp" } }),
        item(2, { publishedAt: "unreadable" }),
      ]),
    );
    expect(doc.rss["@_version"]).toBe("2.0");
    expect(doc.rss["@_xmlns:atom"]).toBe(ATOM_NAMESPACE);
    const ch = doc.rss.channel;
    expect(ch).toMatchObject({
      title: "أخبار الشمال",
      link: "https://akhbar.example/",
      description: "وصف",
      language: "ar",
    });
    expect(ch["atom:link"]).toMatchObject({
      "@_href": "https://akhbar.example/rss.xml",
      "@_rel": "self",
      "@_type": "application/rss+xml",
    });
    expect(ch.lastBuildDate).toMatch(RFC_822_DATE);
    const [first, second] = list(ch.item);
    expect(first).toMatchObject({
      title: "خبر 1",
      link: "https://akhbar.example/news/1",
      guid: { "#text": "https://akhbar.example/news/1", "@_isPermaLink": "true" },
      description: "نص 1",
      pubDate: "Sun, 22 Nov 2026 10:00:00 +0000",
      category: "أخبار محلية",
      enclosure: {
        "@_url": "https://akhbar.example/media/news-images/a.webp",
        "@_type": "image/webp",
        "@_length": "0",
      },
    });
    expect(second.pubDate).toBeUndefined();
    expect(second.enclosure).toBeUndefined();
  });

  it("keeps hostile titles, descriptions and URLs well-formed", () => {
    const doc = parseXml(
      buildRss({ ...channel, title: HOSTILE_TITLE, selfUrl: `https://akhbar.example/rss.xml?a=1&b="2"` }, [
        item(1, {
          title: HOSTILE_TITLE,
          description: HOSTILE_TITLE,
          category: HOSTILE_TITLE,
          image: { url: `https://x.example/a.webp?a=1&b=<2>`, type: "image/webp" },
        }),
      ]),
    );
    expect(doc.rss.channel.title).toBe(HOSTILE_TITLE_AS_READ);
    expect(doc.rss.channel.item.title).toBe(HOSTILE_TITLE_AS_READ);
    expect(doc.rss.channel.item.description).toBe(HOSTILE_TITLE_AS_READ);
    expect(doc.rss.channel.item.enclosure["@_url"]).toBe("https://x.example/a.webp?a=1&b=<2>");
  });

  it("keeps at most 30 items, and an empty feed is still a valid channel", () => {
    const many = Array.from({ length: RSS_ITEM_COUNT + 3 }, (_, i) => item(i));
    expect(list(parseXml(buildRss(channel, many)).rss.channel.item)).toHaveLength(30);
    const empty = parseXml(buildRss(channel, []));
    expect(empty.rss.channel.item).toBeUndefined();
    expect(empty.rss.channel.lastBuildDate).toBeUndefined();
  });
});
