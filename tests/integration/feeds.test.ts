/**
 * The feeds through the real production server: each is served by its own route (not the short-link
 * or 404 page), with its content type and cache policy, well-formed, and without drafts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES, categoryPath, feedPath } from "~/lib/categories";
import type { DB } from "~/server/db/db.server";
import { get } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { list, parseXml } from "../support/xml";
import { canonicalPath, createTestArticle } from "../../harness/articles";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let local: { id: string; shortId: string | null };
let sports: string;
let draft: string;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  local = await createTestArticle(db, { title: "خبر محلي & <جديد>", content: "نص الخبر المحلي.", category: "local" });
  sports = (await createTestArticle(db, { title: "خبر رياضي", content: "نص", category: "sports" })).id;
  draft = (await createTestArticle(db, { title: "مسودة سرية", content: "نص", category: "local", status: "draft" })).id;
});
afterAll(() => stopServerAndDb({ server, db }));

async function fetchFeed(pathname: string, contentType: string): Promise<string> {
  const response = await get(`${server.url}${pathname}`);
  expect(response.status, pathname).toBe(200);
  expect(response.headers.get("content-type"), pathname).toBe(contentType);
  expect(response.headers.get("cache-control"), pathname).toBe("public, max-age=300");
  const body = await response.text();
  expect(body, pathname).not.toContain(draft);
  return body;
}

describe("feeds on the real server", () => {
  it("serves robots.txt with absolute sitemap URLs", async () => {
    const body = await fetchFeed("/robots.txt", "text/plain; charset=utf-8");
    expect(body).toContain("Disallow: /dashboard\n");
    expect(body).toContain(`Sitemap: ${server.url}/sitemap.xml\n`);
    expect(body).toContain(`Sitemap: ${server.url}/news-sitemap.xml\n`);
  });

  it("serves the sitemap with the published articles", async () => {
    const doc = parseXml(await fetchFeed("/sitemap.xml", "application/xml; charset=utf-8"));
    const locs = list(doc.urlset.url).map((u) => u.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        `${server.url}/`,
        `${server.url}/educatonal`,
        `${server.url}${await canonicalPath(db, local.id)}`,
        `${server.url}${await canonicalPath(db, sports)}`,
      ]),
    );
    expect(parseXml(await fetchFeed("/sitemap.xml?page=1", "application/xml; charset=utf-8"))).toEqual(doc);
  });

  it("answers 404, never 500, for a sitemap page that does not exist", async () => {
    for (const page of ["2", "0", "-1", "abc", "1e3", "99999999999999999999"]) {
      const response = await get(`${server.url}/sitemap.xml?page=${page}`);
      expect(response.status, page).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    }
  });

  it("serves the news sitemap with today's articles", async () => {
    const doc = parseXml(await fetchFeed("/news-sitemap.xml", "application/xml; charset=utf-8"));
    const titles = list(doc.urlset.url).map((u) => u["news:news"]["news:title"]);
    expect(titles).toEqual(expect.arrayContaining(["خبر محلي & <جديد>", "خبر رياضي"]));
  });

  it("serves the site's RSS and one feed per category, each with only its own articles", async () => {
    const site = parseXml(await fetchFeed("/rss.xml", "application/rss+xml; charset=utf-8")).rss.channel;
    expect(site["atom:link"]["@_href"]).toBe(`${server.url}/rss.xml`);
    expect(list(site.item)).toHaveLength(2);
    for (const category of CATEGORIES) {
      const path = `${categoryPath(category)}/rss.xml`;
      const channel = parseXml(await fetchFeed(path, "application/rss+xml; charset=utf-8")).rss.channel;
      expect(channel["atom:link"]["@_href"]).toBe(`${server.url}${path}`);
    }
    const localItems = list(
      parseXml(await fetchFeed("/local/rss.xml", "application/rss+xml; charset=utf-8")).rss.channel.item,
    );
    expect(localItems.map((i) => i.link)).toEqual([`${server.url}${await canonicalPath(db, local.id)}`]);
  });

  it("advertises each category's own feed on its page, the breaking page's too", async () => {
    for (const category of CATEGORIES) {
      const page = await (await get(`${server.url}${categoryPath(category)}`)).text();
      const feeds = [...page.matchAll(/<link rel="alternate" type="application\/rss\+xml"[^>]*href="([^"]+)"/g)].map(
        (match) => match[1],
      );
      expect(new Set(feeds), category).toEqual(new Set(["/rss.xml", feedPath(category)]));
      expect(feeds, category).toHaveLength(2);
    }
  });

  it("sends the feed of the other spelling of the educational page to its own, as the page", async () => {
    for (const [from, to] of [
      ["/educational/rss.xml", "/educatonal/rss.xml"],
      ["/educational?page=2", "/educatonal?page=2"],
    ]) {
      const response = await get(`${server.url}${from}`);
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location"), from).toBe(to);
    }
  });

  it("gives 404 for the feed of a category that does not exist, and short links still work", async () => {
    for (const pathname of ["/unknown/rss.xml", "/news/rss.xml", "/rss.xml/extra"]) {
      expect((await get(`${server.url}${pathname}`)).status, pathname).toBe(404);
    }
    const shortLink = await get(`${server.url}/${local.shortId}`);
    expect(shortLink.status).toBe(301);
    expect(shortLink.headers.get("location")).toMatch(new RegExp(`^/news/${local.id}/[^/]+$`));
  });
});
