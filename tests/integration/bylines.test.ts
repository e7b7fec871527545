import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorPath } from "~/lib/bylines";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { createTestArticle, publishForm } from "../../harness/articles";
import { createTestAccount, sessionCookie } from "../../harness/accounts";
import { post } from "../../harness/http-client";
import { list, parseXml } from "../support/xml";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let cookie = "";
let saraId = "";
const BASE = "https://akhbar.example";
const SARA = "سارة الحلبي";

beforeAll(async () => {
  // BASE_URL is the public address; the server still listens on 127.0.0.1, behind a proxy there.
  ({ server, db } = await startServerAndDb({ BASE_URL: BASE, TRUST_PROXY: "loopback" }));
  const auth = { baseUrl: BASE, authSecret: server.env.AUTH_SECRET };
  saraId = await createTestAccount(db, auth, { email: "sara@example.com", username: SARA, role: "admin" });
  cookie = await sessionCookie(db, auth, "sara@example.com");
});
afterAll(() => stopServerAndDb({ server, db }));

async function postToApi(fields: Record<string, string>): Promise<Response> {
  const { title = "خبر", ...rest } = fields;
  return fetch(`${server.url}/api/news`, {
    method: "POST",
    body: publishForm(title, rest),
    headers: { cookie, origin: BASE },
  });
}

async function publish(title: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await postToApi({ title, ...fields });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const page = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}
const newsArticle = (html: string) => jsonLd(html).find((ld) => ld["@type"] === "NewsArticle")!;

async function rssItem(title: string) {
  const rss = parseXml(await (await page("/rss.xml")).text());
  expect(rss.rss["@_xmlns:dc"]).toBe("http://purl.org/dc/elements/1.1/");
  return list(rss.rss.channel.item).find((item: { title: string }) => item.title === title);
}

describe("bylines", () => {
  it("credit the author on the article, in RSS and in JSON-LD as a Person with their page", async () => {
    const id = await publish("افتتاح معرض الكتاب في طرابلس");
    const html = await (await page(`/news/${id}`)).text();
    const href = authorPath(SARA);
    expect(html).toContain(`${messages.byAuthor} <a href="${href}" rel="author"`);
    expect(newsArticle(html).author).toEqual([{ "@type": "Person", name: SARA, url: `${BASE}${href}` }]);
    expect((await rssItem("افتتاح معرض الكتاب في طرابلس"))["dc:creator"]).toBe(SARA);
  });

  it("show a byline text instead of the author, with no author link, everywhere", async () => {
    const id = await publish("قمة إقليمية في عمّان", { byline: "  وكالات  " });
    const html = await (await page(`/news/${id}`)).text();
    expect(html).toContain("وكالات");
    expect(html).not.toContain('rel="author"');
    expect(newsArticle(html).author).toEqual([{ "@type": "Organization", name: "وكالات" }]);
    expect((await rssItem("قمة إقليمية في عمّان"))["dc:creator"]).toBe("وكالات");
    const authorPage = await (await page(authorPath(SARA))).text();
    expect(authorPage).not.toContain("قمة إقليمية في عمّان");
  });

  it("refuse a byline over its length with its message, and store nothing", async () => {
    const before = await db
      .selectFrom("news")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const response = await postToApi({ title: "خبر بتوقيع طويل", byline: "م".repeat(81) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { fields?: Record<string, string> } };
    expect(body.error.fields?.byline).toBe(newsroomMessages.bylineTooLong);
    const after = await db
      .selectFrom("news")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe("the author page", () => {
  it("lists the author's published articles by pages, cacheable, at an Arabic address", async () => {
    const author = await createTestAccount(
      db,
      { baseUrl: BASE, authSecret: server.env.AUTH_SECRET },
      { email: "omar@example.com", username: "عمر الأسعد", role: "author" },
    );
    for (let i = 0; i < 13; i++)
      await createTestArticle(db, {
        title: `تقرير عمر ${i}`,
        authorId: author,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      });
    await createTestArticle(db, { title: "مسودة عمر", authorId: author, status: "draft" });
    const first = await page(`/author/${encodeURIComponent("عمر الأسعد")}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toMatch(/^public/);
    const html = await first.text();
    expect(html).toContain(`<h1 id="author-title"`);
    expect(html).toContain(`${messages.authorArticles} عمر الأسعد`);
    expect(html).toContain("تقرير عمر 12");
    expect(html).not.toContain("تقرير عمر 0<");
    expect(html).not.toContain("مسودة عمر");
    expect(html).toContain(`href="${authorPath("عمر الأسعد")}?page=2" rel="next"`);
    const second = await (await page(`${authorPath("عمر الأسعد")}?page=2`)).text();
    expect(second).toContain("تقرير عمر 0");
    expect(second).not.toContain('rel="next"');
  });

  it("answers 404 with its Arabic message for a name no one has", async () => {
    const response = await page(`/author/${encodeURIComponent("لا أحد")}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(messages.pageNotFound);
  });
});

/** The dashboard's list of articles, without the most-read list beside it. */
function tableOf(html: string): string {
  const start = html.indexOf('data-testid="dashboard-filters"');
  return html.slice(start, html.indexOf("</nav>", start));
}

describe("the dashboard", () => {
  it("filters by title, status, category and author from the URL, and its pages keep the filters", async () => {
    for (let i = 0; i < 22; i++) await publish(`حصاد الزيتون ${i}`, { status: "draft", category: "sports" });
    await publish("حصاد الزيتون منشور", { category: "sports" });
    const path = `/dashboard?q=${encodeURIComponent("حصاد الزيتون")}&status=draft&category=sports&author=${saraId}`;
    const html = tableOf(await (await page(path, { cookie })).text());
    const rows = [...html.matchAll(/data-testid="news-row"/g)];
    expect(rows).toHaveLength(20);
    expect(html).not.toContain("حصاد الزيتون منشور");
    expect(html).toContain(
      `href="/dashboard?q=${encodeURIComponent("حصاد الزيتون").replace(/%20/g, "+")}&amp;status=draft&amp;category=sports&amp;author=${saraId}&amp;page=2"`,
    );
    const none = await (await page(`/dashboard?q=${encodeURIComponent("لا يوجد")}`, { cookie })).text();
    expect(none).toContain(newsroomMessages.filterNoMatch);
  });

  it("says a draft was saved as a draft, and a published article that it was published", async () => {
    const draft = await post(`${server.url}/dashboard`, publishForm("مسودة للوحة", { status: "draft" }), { cookie });
    expect(draft.status, await draft.clone().text()).toBe(302);
    const draftPage = await (await page(draft.headers.get("location")!, { cookie })).text();
    expect(draftPage).toContain(newsroomMessages.savedAsDraft);
    expect(draftPage).not.toContain(newsroomMessages.published);
    const published = await post(`${server.url}/dashboard`, publishForm("منشور للوحة"), { cookie });
    const publishedPage = await (await page(published.headers.get("location")!, { cookie })).text();
    expect(publishedPage).toContain(newsroomMessages.published);
  });
});
