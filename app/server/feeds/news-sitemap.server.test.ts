import { describe, expect, it } from "vitest";
import {
  HOSTILE_TITLE,
  HOSTILE_TITLE_AS_READ,
  list,
  NEWS_NAMESPACE,
  parseXml,
  SITEMAP_NAMESPACE,
  W3C_DATETIME,
} from "../../../tests/support/xml";
import { buildNewsSitemap, NEWS_SITEMAP_LIMIT } from "./news-sitemap.server";

const publication = { name: "أخبار الشمال", language: "ar" };

describe("buildNewsSitemap", () => {
  it("writes Google's news elements under both namespaces", () => {
    const doc = parseXml(
      buildNewsSitemap(
        [{ loc: "https://akhbar.example/news/a", title: HOSTILE_TITLE, publishedAt: "2026-11-22T10:00:00.000Z" }],
        publication,
      ),
    );
    expect(doc.urlset["@_xmlns"]).toBe(SITEMAP_NAMESPACE);
    expect(doc.urlset["@_xmlns:news"]).toBe(NEWS_NAMESPACE);
    const url = doc.urlset.url;
    expect(url.loc).toBe("https://akhbar.example/news/a");
    expect(url["news:news"]["news:publication"]).toEqual({ "news:name": "أخبار الشمال", "news:language": "ar" });
    expect(url["news:news"]["news:publication_date"]).toBe("2026-11-22T10:00:00Z");
    expect(url["news:news"]["news:publication_date"]).toMatch(W3C_DATETIME);
    expect(url["news:news"]["news:title"]).toBe(HOSTILE_TITLE_AS_READ);
  });

  it("keeps at most 1,000 items and drops those without a readable date", () => {
    const items = Array.from({ length: NEWS_SITEMAP_LIMIT + 5 }, (_, i) => ({
      loc: `https://akhbar.example/news/${i}`,
      title: `خبر ${i}`,
      publishedAt: i === 0 ? "not a date" : "2026-11-22T10:00:00.000Z",
    }));
    const urls = list(parseXml(buildNewsSitemap(items, publication)).urlset.url);
    expect(NEWS_SITEMAP_LIMIT).toBe(1_000);
    expect(urls).toHaveLength(NEWS_SITEMAP_LIMIT - 1);
    expect(urls[0].loc).toBe("https://akhbar.example/news/1");
  });

  it("is a valid empty sitemap when nothing is recent", () => {
    const doc = parseXml(buildNewsSitemap([], publication));
    expect(list(doc.urlset.url)).toEqual([]);
  });
});
