import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATEGORIES, categoryPath } from "~/lib/categories";
import { createTempDatabase } from "../../../harness/temp-db";
import {
  HOSTILE_TITLE,
  HOSTILE_TITLE_AS_READ,
  list,
  parseXml,
  RFC_822_DATE,
  W3C_DATETIME,
} from "../../../tests/support/xml";
import type { DB } from "../db/db.server";
import { deleteArticle, updateArticle, type NewArticle } from "~/server/news/articles-write.server";
import { canonicalPath, createTestArticle } from "../../../harness/articles";
import { newsSitemapXml, rssXml, sitemapXml } from "./feeds.server";
import { demoSettings } from "~/server/demo/demo-settings";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";

/** The demo's settings, saved long before any article: they name the feeds and date the information pages. */
const SETTINGS_SAVED_AT = "2026-01-01T00:00:00Z";

const BASE = "https://akhbar.example";
/** Whole seconds, as the feeds write them; real time, since edits are stamped with the clock. */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const HOUR = 3_600_000;
const PAGE_URLS = 1 + CATEGORIES.length + 4;

let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  await writeSiteSettings(db, demoSettings, null, new Date(SETTINGS_SAVED_AT));
});
afterEach(async () => cleanup());

async function article(title: string, hoursAgo: number, overrides: Partial<NewArticle> = {}): Promise<string> {
  const created = await createTestArticle(db, {
    title,
    content: `نص ${title}`,
    category: "local",
    createdAt: new Date(NOW.getTime() - hoursAgo * HOUR),
    ...overrides,
  });
  return created.id;
}

/** Many published articles of the same moment. */
async function bulkPublished(
  count: number,
  hoursAgo: number,
  category: NewArticle["category"] = "local",
): Promise<void> {
  const createdAt = new Date(NOW.getTime() - hoursAgo * HOUR);
  for (let i = 0; i < count; i++)
    await createTestArticle(db, { title: `خبر بالجملة ${i}`, content: "نص", category, createdAt });
}

/** Published, draft, and deleted: the last two must appear nowhere. */
async function publishedDraftAndDeleted() {
  const published = await article("منشور", 1, { images: ["/media/news-images/pic.webp"] });
  const draft = await article("مسودة سرية", 1, { status: "draft" });
  const deleted = await article("خبر محذوف", 1);
  await deleteArticle(db, deleted);
  return { published, draft, deleted };
}

async function sitemapLocs(limit?: number): Promise<string[]> {
  const doc = parseXml((await sitemapXml(db, { baseUrl: BASE, page: null, limit }))!);
  return list(doc.urlset.url).map((u) => u.loc as string);
}

describe("sitemapXml", () => {
  it("lists home, every category, the information pages and each published article, all with <lastmod>", async () => {
    const { published, draft, deleted } = await publishedDraftAndDeleted();
    const doc = parseXml((await sitemapXml(db, { baseUrl: BASE, page: null }))!);
    const urls = list(doc.urlset.url);
    const locs = urls.map((u) => u.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        `${BASE}/`,
        ...CATEGORIES.map((c) => `${BASE}${categoryPath(c)}`),
        `${BASE}/educatonal`,
        `${BASE}/who`,
        `${BASE}/contact`,
        `${BASE}/privacy`,
        `${BASE}/development`,
        `${BASE}${await canonicalPath(db, published)}`,
      ]),
    );
    expect(urls).toHaveLength(PAGE_URLS + 1);
    for (const url of urls) expect(url.lastmod).toMatch(W3C_DATETIME);
    const text = JSON.stringify(doc);
    expect(text).not.toContain(draft);
    expect(text).not.toContain(deleted);
  });

  it("dates home and a category by their newest article, counting edits", async () => {
    const id = await article("قديم", 30);
    await article("رياضي", 10, { category: "sports" });
    await updateArticle(db, id, {
      title: "معدّل",
      content: "نص",
      category: "local",
      status: "published",
      imageUrl: null,
      images: [],
      video: null,
    });
    const urls = list(parseXml((await sitemapXml(db, { baseUrl: BASE, page: null }))!).urlset.url);
    const lastmod = (loc: string) => urls.find((u) => u.loc === `${BASE}${loc}`)?.lastmod;
    const edited = lastmod(await canonicalPath(db, id));
    expect(new Date(edited).getTime()).toBeGreaterThanOrEqual(NOW.getTime());
    expect(lastmod("/local")).toBe(edited);
    expect(lastmod("/")).toBe(edited);
    expect(lastmod("/sports")).toBe(new Date(NOW.getTime() - 10 * HOUR).toISOString().replace(".000Z", "Z"));
    expect(lastmod("/breaking")).toBe(edited);
    expect(lastmod("/who")).toBe(SETTINGS_SAVED_AT);
  });

  it("becomes an index of pages past the limit, each page within it, every URL exactly once", async () => {
    for (let i = 0; i < 10; i++) await article(`خبر ${i}`, i);
    await article("مسودة", 0, { status: "draft" });
    const everything = await sitemapLocs();
    expect(everything).toHaveLength(PAGE_URLS + 10);

    const limit = 6;
    const index = parseXml((await sitemapXml(db, { baseUrl: BASE, page: null, limit }))!);
    expect(index.urlset).toBeUndefined();
    const pages = list(index.sitemapindex.sitemap).map((s) => s.loc as string);
    expect(pages).toEqual([1, 2, 3, 4].map((n) => `${BASE}/sitemap.xml?page=${n}`));

    const paged: string[] = [];
    for (let page = 1; page <= pages.length; page++) {
      const urls = list(parseXml((await sitemapXml(db, { baseUrl: BASE, page, limit }))!).urlset.url);
      expect(urls.length).toBeLessThanOrEqual(limit);
      for (const url of urls) expect(url.lastmod).toMatch(W3C_DATETIME);
      paged.push(...urls.map((u) => u.loc as string));
    }
    expect(paged).toHaveLength(everything.length);
    expect(new Set(paged)).toEqual(new Set(everything));

    expect(await sitemapXml(db, { baseUrl: BASE, page: 5, limit })).toBeNull();
    expect(await sitemapXml(db, { baseUrl: BASE, page: 0, limit })).toBeNull();
  });

  it("stays a single file at exactly the limit, where page 1 is the whole sitemap and page 2 does not exist", async () => {
    await bulkPublished(4, 5);
    const limit = PAGE_URLS + 4;
    expect(await sitemapLocs(limit)).toHaveLength(limit);
    expect(await sitemapXml(db, { baseUrl: BASE, page: 1, limit })).toBe(
      await sitemapXml(db, { baseUrl: BASE, page: null, limit }),
    );
    expect(await sitemapXml(db, { baseUrl: BASE, page: 2, limit })).toBeNull();
    await bulkPublished(1, 5);
    expect(parseXml((await sitemapXml(db, { baseUrl: BASE, page: null, limit }))!).sitemapindex).toBeDefined();
  });
});

describe("newsSitemapXml", () => {
  it("has the articles of the last 48 hours, newest first, without drafts or deleted ones", async () => {
    const { published, draft, deleted } = await publishedDraftAndDeleted();
    const recent = await article("قبل ٤٧ ساعة", 47);
    const old = await article("قبل ٤٩ ساعة", 49);
    const doc = parseXml(await newsSitemapXml(db, { baseUrl: BASE, now: NOW }));
    const urls = list(doc.urlset.url);
    expect(urls.map((u) => u.loc)).toEqual([
      `${BASE}${await canonicalPath(db, published)}`,
      `${BASE}${await canonicalPath(db, recent)}`,
    ]);
    for (const url of urls) {
      expect(url["news:news"]["news:publication"]).toEqual({ "news:name": "أخبار الشمال", "news:language": "ar" });
      expect(url["news:news"]["news:publication_date"]).toMatch(W3C_DATETIME);
    }
    const text = JSON.stringify(doc);
    for (const absent of [draft, deleted, old]) expect(text).not.toContain(absent);
  });

  it("counts a draft published later from when it was published", async () => {
    const id = await article("مسودة قديمة", 100, { status: "draft" });
    await updateArticle(db, id, {
      title: "نُشرت الآن",
      content: "نص",
      category: "local",
      status: "published",
      imageUrl: null,
      images: [],
      video: null,
    });
    const urls = list(parseXml(await newsSitemapXml(db, { baseUrl: BASE })).urlset.url);
    expect(urls.map((u) => u["news:news"]["news:title"])).toEqual(["نُشرت الآن"]);
  });

  it("lists at most 1,000 articles", { timeout: 120_000 }, async () => {
    await bulkPublished(1_001, 2);
    const urls = list(parseXml(await newsSitemapXml(db, { baseUrl: BASE, now: NOW })).urlset.url);
    expect(urls).toHaveLength(1_000);
  });

  it("keeps hostile titles well-formed", async () => {
    await article(HOSTILE_TITLE, 1);
    const url = parseXml(await newsSitemapXml(db, { baseUrl: BASE, now: NOW })).urlset.url;
    expect(url["news:news"]["news:title"]).toBe(HOSTILE_TITLE_AS_READ);
  });
});

describe("rssXml", () => {
  it("has the latest 30 published articles with absolute links, RFC 822 dates and image enclosures", async () => {
    const { published, draft, deleted } = await publishedDraftAndDeleted();
    await bulkPublished(40, 50);
    const doc = parseXml(await rssXml(db, { baseUrl: BASE }));
    const channel = doc.rss.channel;
    expect(channel).toMatchObject({ title: "أخبار الشمال", link: `${BASE}/`, language: "ar" });
    expect(channel["atom:link"]["@_href"]).toBe(`${BASE}/rss.xml`);
    const items = list(channel.item);
    expect(items).toHaveLength(30);
    expect(items[0]).toMatchObject({
      title: "منشور",
      // The link is the readable address; the guid the id's, which an edited slug does not change (decision 033).
      link: `${BASE}${await canonicalPath(db, published)}`,
      guid: { "#text": `${BASE}/news/${published}`, "@_isPermaLink": "true" },
      description: "نص منشور",
      category: "أخبار محلية",
      enclosure: { "@_url": `${BASE}/media/news-images/pic.webp`, "@_type": "image/webp", "@_length": "0" },
    });
    for (const item of items) expect(item.pubDate).toMatch(RFC_822_DATE);
    const text = JSON.stringify(doc);
    expect(text).not.toContain(draft);
    expect(text).not.toContain(deleted);
  });

  it("gives one category's articles under its own channel", async () => {
    const local = await article("محلي", 2);
    await article("رياضي", 1, { category: "sports" });
    await article("تربوي مسودة", 1, { category: "educational", status: "draft" });
    const educational = await article("تربوي", 3, { category: "educational" });
    const localFeed = parseXml(await rssXml(db, { baseUrl: BASE, category: "local" })).rss.channel;
    expect(localFeed.link).toBe(`${BASE}/local`);
    expect(localFeed["atom:link"]["@_href"]).toBe(`${BASE}/local/rss.xml`);
    expect(list(localFeed.item).map((i) => i.link)).toEqual([`${BASE}${await canonicalPath(db, local)}`]);
    const educationalFeed = parseXml(await rssXml(db, { baseUrl: BASE, category: "educational" })).rss.channel;
    expect(educationalFeed["atom:link"]["@_href"]).toBe(`${BASE}/educatonal/rss.xml`);
    expect(list(educationalFeed.item).map((i) => i.title)).toEqual(["تربوي"]);
    expect(list(educationalFeed.item)[0].link).toBe(`${BASE}${await canonicalPath(db, educational)}`);
    const empty = parseXml(await rssXml(db, { baseUrl: BASE, category: "advertisement" })).rss.channel;
    expect(empty.item).toBeUndefined();
  });

  it("summarises the text in about 200 plain characters and keeps hostile content well-formed", async () => {
    const content = `${HOSTILE_TITLE}\n\n${"كلمة ".repeat(100)}`;
    await article(HOSTILE_TITLE, 1, { content, images: ["https://cdn.example/photos/a.JPG?token=1&x=2"] });
    const item = parseXml(await rssXml(db, { baseUrl: BASE })).rss.channel.item;
    expect(item.title).toBe(HOSTILE_TITLE_AS_READ);
    expect(item.description.length).toBeLessThanOrEqual(201);
    expect(item.description).not.toContain("\n");
    expect(item.description.endsWith("…")).toBe(true);
    expect(item.enclosure).toMatchObject({
      "@_url": "https://cdn.example/photos/a.JPG?token=1&x=2",
      "@_type": "image/jpeg",
    });
  });

  it("leaves out an enclosure whose image type it cannot tell", async () => {
    await article("صورة غريبة", 1, { images: ["https://cdn.example/image?id=5"] });
    expect(parseXml(await rssXml(db, { baseUrl: BASE })).rss.channel.item.enclosure).toBeUndefined();
  });
});
