/**
 * Topics through the real server (decision 032), on the engine under test: the topic page with Arabic
 * in its address (percent-encoded on the wire, behind the page cache), its pages, its feed, the
 * sitemaps, the article's links and JSON-LD, related articles by topics, the form's refusals by role,
 * the autocomplete, and the admin's rename and merge with their redirects.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { topicMessages } from "~/lib/newsroom-messages";
import { wirePath } from "~/lib/news";
import { topicPath } from "~/lib/topics";
import type { DB } from "~/server/db/db.server";
import { topicsOfArticle } from "~/server/news/topics.server";
import { callApi, get, post, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { articleAt, canonicalPath, createTestArticle, publishForm } from "../../harness/articles";
import { signedInAs } from "../../harness/accounts";
import { list, parseXml } from "../support/xml";
import { sessionAs, startServerAndDb, startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let editor: Session;
let author: Session;
let admin: Session;
const ids: Record<string, string> = {};
const EDITORIAL = (names: string[]) => ({ names, mayCreate: true });
/** An article written `minute` minutes into the last hour (the news sitemap lists the last two days). */
const STARTED = Date.now() - 3_600_000;
const at = (minute: number, overrides: Parameters<typeof articleAt>[2]) =>
  articleAt(db, minute, { createdAt: new Date(STARTED + minute * 60_000), ...overrides });

const MINIEH = topicPath("المنية");

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = await sessionAs(db, server, {
    email: "topics-editor@example.com",
    username: "محررة المواضيع",
    role: "editor",
  });
  author = await sessionAs(db, server, {
    email: "topics-author@example.com",
    username: "كاتب المواضيع",
    role: "author",
  });
  admin = await sessionAs(db, server, { email: "topics-admin@example.com", username: "مدير المواضيع", role: "admin" });
  // Eight published articles on المنية (two pages of six), one draft, and others to relate.
  for (let minute = 1; minute <= 8; minute++)
    ids[`minieh${minute}`] = await at(minute, { category: "sports", topics: EDITORIAL(["المنية"]) });
  ids.draft = await at(9, { title: "مسودة عن المنية", status: "draft", topics: EDITORIAL(["المنية"]) });
  ids.reading = await at(20, {
    title: "انقطاع الكهرباء في المنية",
    category: "local",
    topics: EDITORIAL(["المنية", "أزمة الكهرباء"]),
  });
  ids.power = await at(21, {
    title: "الكهرباء تعود إلى عكار",
    category: "international",
    topics: EDITORIAL(["أزمة الكهرباء", "عكار"]),
  });
  ids.newestLocal = await at(30, { title: "أحدث خبر محلي بلا مواضيع", category: "local" });
});
afterAll(() => stopServerAndDb({ server, db }));

const page = async (path: string, session?: Session) => {
  const response = await get(`${server.url}${path}`, session);
  return { status: response.status, headers: response.headers, html: await response.text() };
};
const cards = (html: string) => [...html.matchAll(/href="\/news\/([^"/?]+)(?:\/[^"?]*)?"/g)].map((m) => m[1]);

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

/** A GET whose request line carries `target` as UTF-8 bytes, unencoded (fetch would encode it): the status and what followed. */
function rawGet(target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.end(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`, "utf8")),
    );
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
}

describe("the topic page", () => {
  it("answers at its Arabic address, percent-encoded, with six published articles and a crawlable next page", async () => {
    expect(wirePath(MINIEH)).toBe("/topic/%D8%A7%D9%84%D9%85%D9%86%D9%8A%D8%A9");
    const first = await page(MINIEH);
    expect(first.status).toBe(200);
    expect(first.html).toContain('<h1 id="topic-title"');
    expect(first.html).toContain(">المنية</h1>");
    expect(first.html).toContain(`<link rel="canonical" href="${server.url}${wirePath(MINIEH)}"/>`);
    expect(first.html).toContain(`href="${MINIEH}/rss.xml"`);
    const listed = cards(first.html.slice(first.html.indexOf('data-testid="category-list"')));
    expect(listed.slice(0, 6)).toEqual([ids.reading, ids.minieh8, ids.minieh7, ids.minieh6, ids.minieh5, ids.minieh4]);
    expect(first.html).not.toContain(ids.draft);
    expect(first.html).toContain(`href="${MINIEH}?page=2" rel="next"`);
    const second = await page(`${MINIEH}?page=2`);
    expect(second.status).toBe(200);
    const secondList = cards(second.html.slice(second.html.indexOf('data-testid="category-list"')));
    expect(secondList.slice(0, 3)).toEqual([ids.minieh3, ids.minieh2, ids.minieh1]);
    expect(second.html).toContain(`href="${MINIEH}" rel="prev"`);
  });

  it("gives 'المزيد' its next page as JSON, and a 404 for an address no topic has", async () => {
    const response = await get(`${server.url}/api/latest?topic=${encodeURIComponent("المنية")}&page=2`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: { id: string }[]; hasMore: boolean; page: number };
    expect(body.items.map((item) => item.id)).toEqual([ids.minieh3, ids.minieh2, ids.minieh1]);
    expect(body.hasMore).toBe(false);
    const missing = await page(topicPath("لا-موضوع-بهذا-الاسم"));
    expect(missing.status).toBe(404);
    expect(missing.html).toContain(topicMessages.topicNotFound);
    expect((await get(`${server.url}/api/latest?topic=${encodeURIComponent("لا-موضوع")}`)).status).toBe(404);
  });

  it("is one page however its address is written on the wire, and the page cache keeps it", async () => {
    expect((await page(MINIEH.toLowerCase())).status).toBe(200);
    // Unencoded UTF-8 is no request target (RFC 9112): Node's parser answers 400 before the site sees it. Browsers send it encoded.
    const raw = await rawGet("/topic/المنية");
    expect(raw.status).toBe(400);
    await page(MINIEH);
    const again = await page(MINIEH);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.html).toContain(">المنية</h1>");
    // Another spelling of the name leads to the topic's own address.
    const spelled = await get(`${server.url}${topicPath("المنيه")}?page=2`);
    expect(spelled.status).toBe(301);
    expect(spelled.headers.get("location")).toBe(wirePath(`${MINIEH}?page=2`));
  });
});

describe("a topic no published story carries", () => {
  it("is not public: its page, next page and feed answer 404 until a story with it is published", async () => {
    await at(40, { title: "مسودة عن القلمون", status: "draft", topics: EDITORIAL(["القلمون"]) });
    await at(41, { title: "القلمون بانتظار المراجعة", status: "review", topics: EDITORIAL(["القلمون"]) });
    const qalamoun = topicPath("القلمون");
    for (const path of [qalamoun, `${qalamoun}/rss.xml`]) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(response.html, path).not.toContain("مسودة عن القلمون");
    }
    expect(await page(topicPath("القلمون")).then((r) => r.html)).toContain(topicMessages.topicNotFound);
    expect((await get(`${server.url}/api/latest?topic=${encodeURIComponent("القلمون")}&page=2`)).status).toBe(404);
    expect((await page(topicPath("القلمونن"))).status).toBe(404);
    await at(42, { title: "خبر منشور عن القلمون", category: "educational", topics: EDITORIAL(["القلمون"]) });
    const published = await page(qalamoun);
    expect(published.status).toBe(200);
    expect(published.html).toContain(">القلمون</h1>");
    expect(published.html).not.toContain("مسودة عن القلمون");
    expect((await page(`${qalamoun}/rss.xml`)).status).toBe(200);
  });
});

describe("feeds and sitemaps", () => {
  it("serves the topic's own RSS with only its published articles", async () => {
    const response = await get(`${server.url}${MINIEH}/rss.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const channel = parseXml(await response.text()).rss.channel;
    expect(channel.title).toContain("المنية");
    expect(channel.link).toBe(`${server.url}${wirePath(MINIEH)}`);
    expect(channel["atom:link"]["@_href"]).toBe(`${server.url}${wirePath(`${MINIEH}/rss.xml`)}`);
    const links = list(channel.item).map((item: { link: string }) => item.link);
    expect(links).toHaveLength(9);
    expect(links[0]).toBe(`${server.url}${await canonicalPath(db, ids.reading!)}`);
    expect(links.join(" ")).not.toContain(ids.draft);
    expect(links.join(" ")).not.toContain(ids.power);
    expect((await get(`${server.url}${topicPath("لا-موضوع")}/rss.xml`)).status).toBe(404);
  });

  it("lists each topic with published articles in the sitemap, encoded", async () => {
    const doc = parseXml(await (await get(`${server.url}/sitemap.xml`)).text());
    const locs = list(doc.urlset.url).map((u: { loc: string }) => u.loc);
    expect(locs).toEqual(
      expect.arrayContaining(
        [MINIEH, topicPath("أزمة-الكهرباء"), topicPath("عكار")].map((path) => `${server.url}${wirePath(path)}`),
      ),
    );
  });

  it("gives each article's topics as the news sitemap's keywords", async () => {
    const doc = parseXml(await (await get(`${server.url}/news-sitemap.xml`)).text());
    const byLoc = new Map(
      list(doc.urlset.url).map((u: { loc: string; "news:news": Record<string, string> }) => [u.loc, u["news:news"]]),
    );
    expect(byLoc.get(`${server.url}${await canonicalPath(db, ids.reading!)}`)?.["news:keywords"]).toBe(
      "المنية, أزمة الكهرباء",
    );
    expect(byLoc.get(`${server.url}${await canonicalPath(db, ids.newestLocal!)}`)).toBeDefined();
    expect(byLoc.get(`${server.url}${await canonicalPath(db, ids.newestLocal!)}`)?.["news:keywords"]).toBeUndefined();
  });
});

describe("the article page", () => {
  it("links its topics, names them in JSON-LD and prefers related articles that share them", async () => {
    const { html } = await page(`/news/${ids.reading}`);
    const topics = html.slice(html.indexOf('data-testid="article-topics"'));
    expect(topics).toContain(`href="${MINIEH}"`);
    expect(topics).toContain(`href="${topicPath("أزمة-الكهرباء")}"`);
    const article = jsonLd(html).find((item) => item["@type"] === "NewsArticle")!;
    expect(article.keywords).toEqual(["المنية", "أزمة الكهرباء"]);
    expect(article.about).toEqual([
      { "@type": "Thing", name: "المنية", url: `${server.url}${wirePath(MINIEH)}` },
      { "@type": "Thing", name: "أزمة الكهرباء", url: `${server.url}${wirePath(topicPath("أزمة-الكهرباء"))}` },
    ]);
    // Related: two, sharing topics first (the power story shares one, the sports stories another), not the newest local story.
    const related = cards(html.slice(html.indexOf('data-testid="related-news"'), html.indexOf('data-testid="picks"')));
    expect(related).toHaveLength(2);
    expect(related).toContain(ids.power);
    expect(related).not.toContain(ids.newestLocal);
  });

  it("still relates by category an article without topics", async () => {
    const { html } = await page(`/news/${ids.newestLocal}`);
    expect(html).not.toContain('data-testid="article-topics"');
    const related = cards(html.slice(html.indexOf('data-testid="related-news"'), html.indexOf('data-testid="picks"')));
    expect(related).toEqual([ids.reading]);
  });
});

describe("writing topics", () => {
  it("lets an editor create a new topic and pick an existing one in a spelling of their own", async () => {
    const { status, json } = await callApi(
      `${server.url}/api/news`,
      "POST",
      publishForm("خبر من المحررة", { topics: "ساحة النور، المنيه" }),
      editor,
    );
    expect(status).toBe(201);
    expect((await topicsOfArticle(db, json.id!)).map((t) => t.name)).toEqual(["ساحة النور", "المنية"]);
    expect((await page(topicPath("ساحة-النور"))).html).toContain(json.id!);
  });

  it("refuses an author's new topic with a 400 and its message, and stores nothing", async () => {
    const before = await db.selectFrom("news").select("id").execute();
    const { status, json } = await callApi(
      `${server.url}/api/news`,
      "POST",
      publishForm("خبر من الكاتب", { status: "review", topics: "المنية، بلدة لم تُذكر" }),
      author,
    );
    expect(status).toBe(400);
    expect(json.error?.fields?.topics).toBe(`${topicMessages.unknownForAuthor} بلدة لم تُذكر`);
    expect(await db.selectFrom("news").select("id").execute()).toEqual(before);
    expect(await db.selectFrom("topics").select("id").where("name", "=", "بلدة لم تُذكر").execute()).toEqual([]);
    const picked = await callApi(
      `${server.url}/api/news`,
      "POST",
      publishForm("خبر من الكاتب", { status: "review", topics: "المنية" }),
      author,
    );
    expect(picked.status).toBe(201);
  });

  it("refuses more than ten topics, and an autosave keeps the draft's topics", async () => {
    const many = Array.from({ length: 11 }, (_, i) => `موضوع ${i}`).join("،");
    const { status, json } = await callApi(
      `${server.url}/api/news`,
      "POST",
      publishForm("كثير", { topics: many }),
      editor,
    );
    expect(status).toBe(400);
    expect(json.error?.fields?.topics).toBe(topicMessages.tooMany);
    const saved = await post(
      `${server.url}/api/news/autosave`,
      { title: "مسودة تلقائية", content: "نص", category: "local", submissionId: "topics-autosave-1", topics: "عكار" },
      editor,
    );
    expect(saved.status).toBe(200);
    const { id } = (await saved.json()) as { id: string };
    expect((await topicsOfArticle(db, id)).map((t) => t.name)).toEqual(["عكار"]);
  });

  it("renders the field as a plain text input (it works without JavaScript), with the article's topics on its edit page, and previews them", async () => {
    const field = (html: string) => /<input id="topics"[^>]*>/.exec(html)?.[0] ?? "";
    const created = field((await page("/dashboard", editor)).html);
    expect(created).toContain('name="topics"');
    expect(created).toContain('value=""');
    const edited = field((await page(`/edit-news/${ids.reading}`, editor)).html);
    expect(edited).toContain('name="topics"');
    expect(edited).toContain('value="المنية، أزمة الكهرباء"');
    const preview = await post(
      `${server.url}/dashboard/preview`,
      publishForm("معاينة", { topics: "طرابلس، موضوع لم يحفظ" }),
      author,
    );
    expect(preview.status).toBe(200);
    const shown = await preview.text();
    expect(shown).toContain("موضوع لم يحفظ");
    expect(await db.selectFrom("topics").select("id").where("name", "=", "موضوع لم يحفظ").execute()).toEqual([]);
  });

  it("suggests existing topics to the newsroom only, by normalised prefix", async () => {
    const response = await get(`${server.url}/api/topics?q=${encodeURIComponent("المنيه")}`, author);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { topics: { name: string }[] }).topics.map((t) => t.name)).toEqual(["المنية"]);
    expect((await get(`${server.url}/api/topics?q=x`)).status).toBe(401);
  });
});

describe("renaming and merging at /dashboard/topics", () => {
  it("renames a topic: the old address and feed answer 301, and cached pages show the new name", async () => {
    const before = await page(`/news/${ids.power}`);
    expect(before.html).toContain("عكار");
    await page(`/news/${ids.power}`);
    const akkar = await db.selectFrom("topics").select("id").where("name", "=", "عكار").executeTakeFirstOrThrow();
    const response = await post(
      `${server.url}/dashboard/topics`,
      { intent: "rename", id: akkar.id, name: "محافظة عكار" },
      admin,
    );
    expect(response.status).toBe(200);
    const moved = await get(`${server.url}${topicPath("عكار")}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(wirePath(topicPath("محافظة-عكار")));
    const feed = await get(`${server.url}${topicPath("عكار")}/rss.xml`);
    expect(feed.status).toBe(301);
    expect(feed.headers.get("location")).toBe(wirePath(`${topicPath("محافظة-عكار")}/rss.xml`));
    const after = await page(`/news/${ids.power}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.html).toContain(`href="${topicPath("محافظة-عكار")}"`);
  });

  it("merges a topic into another: its articles move, its address answers 301", async () => {
    const from = await db.selectFrom("topics").select("id").where("name", "=", "ساحة النور").executeTakeFirstOrThrow();
    const into = await db.selectFrom("topics").select("id").where("name", "=", "المنية").executeTakeFirstOrThrow();
    const response = await post(
      `${server.url}/dashboard/topics`,
      { intent: "merge", id: from.id, into: into.id },
      admin,
    );
    expect(response.status).toBe(200);
    const moved = await get(`${server.url}${topicPath("ساحة-النور")}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(wirePath(MINIEH));
    const list = await page("/dashboard/topics", admin);
    expect(list.html).not.toContain("ساحة النور");
    expect(list.html).toContain("المنية");
  });

  it("shows a refusal in Arabic with a 4xx and changes nothing", async () => {
    const minieh = await db.selectFrom("topics").select("id").where("name", "=", "المنية").executeTakeFirstOrThrow();
    const before = await db.selectFrom("topics").selectAll().orderBy("id").execute();
    const same = await post(
      `${server.url}/dashboard/topics`,
      { intent: "merge", id: minieh.id, into: minieh.id },
      admin,
    );
    expect(same.status).toBe(400);
    expect(await same.text()).toContain(topicMessages.mergeSame);
    const taken = await post(
      `${server.url}/dashboard/topics`,
      { intent: "rename", id: minieh.id, name: "أزمة الكهرباء" },
      admin,
    );
    expect(taken.status).toBe(409);
    const gone = await post(
      `${server.url}/dashboard/topics`,
      { intent: "rename", id: "no-such-topic", name: "اسم" },
      admin,
    );
    expect(gone.status).toBe(404);
    const bad = await post(`${server.url}/dashboard/topics`, { intent: "explode", id: minieh.id }, admin);
    expect(bad.status).toBe(400);
    expect(await db.selectFrom("topics").selectAll().orderBy("id").execute()).toEqual(before);
  });
});

describe("creating, describing and deleting at /dashboard/topics", () => {
  const topicNamed = (name: string) =>
    db.selectFrom("topics").select(["id", "slug", "description"]).where("name", "=", name).executeTakeFirst();

  it("creates a topic with its slug from its name and its description, shown once a story carries it", async () => {
    const response = await post(
      `${server.url}/dashboard/topics`,
      { intent: "create", name: "  مرفأ   طرابلس ", description: "أخبار المرفأ وحركة السفن فيه." },
      admin,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(topicMessages.created);
    expect(await topicNamed("مرفأ طرابلس")).toMatchObject({
      slug: "مرفأ-طرابلس",
      description: "أخبار المرفأ وحركة السفن فيه.",
    });
    expect((await page("/dashboard/topics", admin)).html).toContain("أخبار المرفأ وحركة السفن فيه.");
    expect((await page(topicPath("مرفأ-طرابلس"))).status).toBe(404);
    await at(50, {
      title: "سفينة جديدة في المرفأ",
      category: "educational",
      topics: { names: ["مرفأ طرابلس"], mayCreate: false },
    });
    const topicPage = await page(topicPath("مرفأ-طرابلس"));
    expect(topicPage.status).toBe(200);
    expect(topicPage.html).toContain("أخبار المرفأ وحركة السفن فيه.");
    expect(topicPage.html).toMatch(/<meta name="description" content="أخبار المرفأ وحركة السفن فيه."/);
  });

  it("changes and clears a description, and the cached topic page shows it", async () => {
    const { id } = (await topicNamed("مرفأ طرابلس"))!;
    await page(topicPath("مرفأ-طرابلس"));
    const response = await post(
      `${server.url}/dashboard/topics`,
      { intent: "describe", id, description: "كل ما يجري في مرفأ طرابلس." },
      admin,
    );
    expect(response.status).toBe(200);
    await vi.waitFor(
      async () => expect((await page(topicPath("مرفأ-طرابلس"))).html).toContain("كل ما يجري في مرفأ طرابلس."),
      { timeout: 2_000, interval: 20 },
    );
    expect(
      (await post(`${server.url}/dashboard/topics`, { intent: "describe", id, description: "   " }, admin)).status,
    ).toBe(200);
    expect((await topicNamed("مرفأ طرابلس"))?.description).toBeNull();
  });

  it("deletes a topic: its stories lose it, its page, old addresses and feed answer 404", async () => {
    const story = await at(51, {
      title: "خبر عن ساحة التل",
      category: "educational",
      topics: EDITORIAL(["ساحة التل", "عكار القديمة"]),
    });
    const { id } = (await topicNamed("ساحة التل"))!;
    await post(`${server.url}/dashboard/topics`, { intent: "rename", id, name: "ساحة التل الكبرى" }, admin);
    expect((await page(topicPath("ساحة-التل-الكبرى"))).status).toBe(200);
    const response = await post(`${server.url}/dashboard/topics`, { intent: "delete", id }, admin);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(topicMessages.deleted);
    expect((await topicsOfArticle(db, story)).map((topic) => topic.name)).toEqual(["عكار القديمة"]);
    for (const path of [
      topicPath("ساحة-التل-الكبرى"),
      topicPath("ساحة-التل"),
      `${topicPath("ساحة-التل-الكبرى")}/rss.xml`,
    ]) {
      expect((await page(path)).status, path).toBe(404);
    }
    await vi.waitFor(
      async () => expect((await page(`/news/${story}`)).html).not.toContain(`href="${topicPath("ساحة-التل-الكبرى")}"`),
      { timeout: 2_000, interval: 20 },
    );
    expect((await page("/dashboard/topics", admin)).html).not.toContain("ساحة التل");
  });

  it("refuses a name taken in any spelling, a blank name, a long description and an unknown topic, with a 4xx in Arabic, changing nothing", async () => {
    const before = await db.selectFrom("topics").selectAll().orderBy("id").execute();
    const taken = await post(
      `${server.url}/dashboard/topics`,
      { intent: "create", name: "المنيه", description: "" },
      admin,
    );
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain(topicMessages.nameExists);
    const blank = await post(
      `${server.url}/dashboard/topics`,
      { intent: "create", name: " ... ", description: "" },
      admin,
    );
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain(topicMessages.nameEmpty);
    const long = await post(
      `${server.url}/dashboard/topics`,
      { intent: "create", name: "موضوع طويل الوصف", description: "و".repeat(301) },
      admin,
    );
    expect(long.status).toBe(400);
    expect(await long.text()).toContain(topicMessages.descriptionTooLong);
    expect(
      (await post(`${server.url}/dashboard/topics`, { intent: "delete", id: "no-such-topic" }, admin)).status,
    ).toBe(404);
    expect(
      (
        await post(
          `${server.url}/dashboard/topics`,
          { intent: "describe", id: "no-such-topic", description: "وصف" },
          admin,
        )
      ).status,
    ).toBe(404);
    expect(await db.selectFrom("topics").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("is for admins only: editors and authors get 403, the signed-out are sent to sign in", async () => {
    const minieh = (await topicNamed("المنية"))!;
    for (const session of [editor, author]) {
      expect(
        (
          await post(
            `${server.url}/dashboard/topics`,
            { intent: "create", name: "موضوع من غير مدير", description: "" },
            session,
          )
        ).status,
      ).toBe(403);
      expect((await post(`${server.url}/dashboard/topics`, { intent: "delete", id: minieh.id }, session)).status).toBe(
        403,
      );
    }
    expect(
      (await post(`${server.url}/dashboard/topics`, { intent: "describe", id: minieh.id, description: "وصف" })).status,
    ).toBe(302);
    expect(await topicNamed("موضوع من غير مدير")).toBeUndefined();
    expect((await topicNamed("المنية"))?.description).toBeNull();
  });
});

describe("two instances on one database", () => {
  it("a rename through A empties B's cached topic page and article page within 2 s", async () => {
    const { site, a, b, db: shared } = await startTwoInstancesAndDb({ PAGE_CACHE_SECONDS: "300" });
    try {
      const id = await createTestArticle(shared, { title: "خبر عن البداوي", topics: EDITORIAL(["البداوي"]) });
      const cookie = await signedInAs(shared, a.site, {
        email: "topics-two@example.com",
        username: "مدير",
        role: "admin",
      });
      const read = async (path: string) => {
        const response = await fetch(`${b.url}${path}`, { redirect: "manual" });
        return { cache: response.headers.get("x-cache"), status: response.status, html: await response.text() };
      };
      const article = await canonicalPath(shared, id.id);
      // Both pages held in B's cache first (B may still be following the set-up's events, each of which empties it).
      await vi.waitFor(
        async () =>
          expect([(await read(article)).cache, (await read(topicPath("البداوي"))).cache]).toEqual(["HIT", "HIT"]),
        { timeout: 5_000, interval: 50 },
      );
      const topic = await shared
        .selectFrom("topics")
        .select("id")
        .where("name", "=", "البداوي")
        .executeTakeFirstOrThrow();
      const renamed = await post(
        `${a.url}/dashboard/topics`,
        { intent: "rename", id: topic.id, name: "بلدة البداوي" },
        { cookie },
      );
      expect(renamed.status).toBe(200);
      await vi.waitFor(
        async () => expect((await read(article)).html).toContain(`href="${topicPath("بلدة-البداوي")}"`),
        { timeout: 2_000, interval: 20 },
      );
      expect((await read(topicPath("البداوي"))).status).toBe(301);
    } finally {
      await stopServerAndDb({ site, db: shared });
    }
  });
});
