import { describe, expect, it } from "vitest";
import { HOSTILE_TITLE, list, parseXml, SITEMAP_NAMESPACE, W3C_DATETIME } from "../../../tests/support/xml";
import { buildSitemapIndex, buildUrlSet, SITEMAP_URL_LIMIT, sitemapPageCount } from "./sitemap.server";

describe("sitemap builders", () => {
  it("lists each URL with a W3C <lastmod> in the sitemaps.org namespace", () => {
    const doc = parseXml(
      buildUrlSet([
        { loc: "https://akhbar.example/", lastModified: "2026-11-22T10:00:00.000Z" },
        { loc: "https://akhbar.example/news/a?x=1&y=2", lastModified: "2026-11-21T08:30:00.000Z" },
      ]),
    );
    expect(doc.urlset["@_xmlns"]).toBe(SITEMAP_NAMESPACE);
    const urls = list(doc.urlset.url);
    expect(urls.map((u) => u.loc)).toEqual(["https://akhbar.example/", "https://akhbar.example/news/a?x=1&y=2"]);
    for (const url of urls) expect(url.lastmod).toMatch(W3C_DATETIME);
  });

  it("leaves <lastmod> out for an unreadable timestamp and survives hostile text", () => {
    const doc = parseXml(buildUrlSet([{ loc: `https://akhbar.example/${HOSTILE_TITLE}`, lastModified: "garbage" }]));
    expect(doc.urlset.url.lastmod).toBeUndefined();
  });

  it("writes an index of page URLs", () => {
    const doc = parseXml(
      buildSitemapIndex(["https://akhbar.example/sitemap.xml?page=1", "https://akhbar.example/sitemap.xml?page=2"]),
    );
    expect(doc.sitemapindex["@_xmlns"]).toBe(SITEMAP_NAMESPACE);
    expect(list(doc.sitemapindex.sitemap).map((s) => s.loc)).toEqual([
      "https://akhbar.example/sitemap.xml?page=1",
      "https://akhbar.example/sitemap.xml?page=2",
    ]);
  });

  it("needs a second page only past the limit of 50,000", () => {
    expect(SITEMAP_URL_LIMIT).toBe(50_000);
    expect(sitemapPageCount(0, SITEMAP_URL_LIMIT)).toBe(1);
    expect(sitemapPageCount(50_000, SITEMAP_URL_LIMIT)).toBe(1);
    expect(sitemapPageCount(50_001, SITEMAP_URL_LIMIT)).toBe(2);
    expect(sitemapPageCount(150_000, SITEMAP_URL_LIMIT)).toBe(3);
  });
});
