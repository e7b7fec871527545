import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { storyMessages } from "~/lib/newsroom-messages";
import { SLUG_MAX } from "~/lib/story-fields";
import type { DB } from "~/server/db/db.server";
import { articleForm, publishForm, putArticle, storedVersion } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { callApi, get, getExactly, post, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { signedInAs } from "../../harness/accounts";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/* The story's own fields and author pages, over HTTP, on the engine under test. */

let server: TestServer;
let db: DB;
let editor: Session;
const BASE = "https://akhbar.example";

beforeAll(async () => {
  ({ server, db } = await startServerAndDb({ BASE_URL: BASE, TRUST_PROXY: "loopback" }));
  editor = {
    cookie: await signedInAs(
      db,
      { baseUrl: BASE, authSecret: server.env.AUTH_SECRET },
      { email: "story@example.com", username: "ريم الكاتبة", role: "editor" },
    ),
  };
});
afterAll(() => stopServerAndDb({ server, db }));

const api = (method: "POST" | "PUT", pathname: string, body: FormData) =>
  callApi(`${server.url}${pathname}`, method, body, editor, { origin: BASE });
const put = (id: string, body: FormData) => putArticle(server.url, editor, id, body, { origin: BASE });

async function publish(
  title: string,
  fields: Record<string, string> = {},
  files: Parameters<typeof publishForm>[2] = [],
) {
  const { status, json } = await api("POST", "/api/news", publishForm(title, fields, files));
  expect(status, JSON.stringify(json)).toBe(201);
  return json as { id: string; shortId: string };
}

const slugOf = async (id: string) =>
  (await db.selectFrom("news").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;

function metaContent(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&amp;/g, "&").replace(/&quot;/g, '"');
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

describe("the readable address /news/{id}/{slug}", () => {
  it("is made from the Arabic title at first publication, percent-encoded on the wire; /news/{id}, a stale slug and the short link answer 301 there", async () => {
    const { id, shortId } = await publish("افتتاحُ معرضِ الكتاب، في طرابلس!");
    const slug = "افتتاح-معرض-الكتاب-في-طرابلس";
    expect(await slugOf(id)).toBe(slug);
    const canonical = `/news/${id}/${encodeURIComponent(slug)}`;

    for (const from of [
      `/news/${id}`,
      `/news/${id}/${encodeURIComponent("عنوان-قديم")}`,
      `/news/${id}/x`,
      `/${shortId}`,
    ]) {
      const answer = await getExactly(`${server.url}${from}`);
      expect(answer.status, from).toBe(301);
      expect(answer.headers.get("location"), from).toBe(canonical);
    }
    // A query goes with the redirect (the edit's "updated" notice).
    expect((await getExactly(`${server.url}/news/${id}?updated=1`)).headers.get("location")).toBe(
      `${canonical}?updated=1`,
    );

    const page = await getExactly(`${server.url}${canonical}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<link rel="canonical" href="${BASE}${canonical}"/>`);
    expect(metaContent(html, "og:url")).toBe(`${BASE}${canonical}`);
    const breadcrumbs = jsonLd(html).find((entry) => entry["@type"] === "BreadcrumbList")!;
    expect(JSON.stringify(breadcrumbs)).toContain(`${BASE}${canonical}`);

    // Cached for readers (the page cache keys the address as it came, percent-encoded), and the old one still redirects.
    const again = await getExactly(`${server.url}${canonical}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect((await getExactly(`${server.url}/news/${id}`)).status).toBe(301);

    const sitemap = await (await getExactly(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`${BASE}${canonical}`);
    const rss = await (await getExactly(`${server.url}/rss.xml`)).text();
    expect(rss).toContain(`<link>${BASE}${canonical}</link>`);
    // The guid stays the id's address, so a changed slug is not a new item.
    expect(rss).toContain(`<guid isPermaLink="true">${BASE}/news/${id}</guid>`);
    // Cards link to it as it reads (HTML takes the Arabic as UTF-8: a third of its encoding's bytes).
    const home = await (await getExactly(`${server.url}/local`)).text();
    expect(home).toContain(`href="/news/${id}/${slug}"`);
  });

  it("an editor's slug is used and made a slug; /news/{id}/delete keeps its own route", async () => {
    const { id } = await publish("خبر عادي", { slug: "  عنوان مختار، للرابط " });
    expect(await slugOf(id)).toBe("عنوان-مختار-للرابط");
    const renamed = articleForm({
      title: "خبر عادي",
      content: "نص",
      category: "local",
      status: "published",
      slug: "رابط جديد",
    });
    expect((await put(id, renamed)).status).toBe(200);
    await vi.waitFor(async () =>
      expect(
        (await getExactly(`${server.url}/news/${id}/${encodeURIComponent("عنوان-مختار-للرابط")}`)).headers.get(
          "location",
        ),
      ).toBe(`/news/${id}/${encodeURIComponent("رابط-جديد")}`),
    );
    // A new title with the slug field left empty keeps the address.
    const retitled = articleForm({ title: "عنوان آخر تماماً", content: "نص", category: "local", status: "published" });
    expect((await put(id, retitled)).status).toBe(200);
    expect(await slugOf(id)).toBe("رابط-جديد");
    const deleteRoute = await getExactly(`${server.url}/news/${id}/delete`);
    expect(deleteRoute.status).not.toBe(301);
    expect(deleteRoute.status).not.toBe(200);
  });

  it("a draft has no slug until it is published", async () => {
    const { id } = await publish("مسودة لم تنشر", { status: "draft" });
    expect(await slugOf(id)).toBeNull();
    expect((await get(`${server.url}/news/${id}`, editor)).status).toBe(200);
  });
});

describe("standfirst, share overrides and noindex", () => {
  it("the standfirst is under the headline and is the meta description, the card's text, RSS's description and JSON-LD's", async () => {
    const standfirst = "موجز الخبر: المعرض يستقبل زواره حتى نهاية الشهر";
    const { id } = await publish("معرض الكتاب يمدد أيامه", {
      standfirst,
      content: "نص طويل لا يظهر في الموجز ".repeat(10),
    });
    const html = await (await get(`${server.url}/news/${id}`)).text();
    expect(html).toMatch(new RegExp(`<p[^>]*data-testid="standfirst"[^>]*>${standfirst}</p>`));
    expect(metaContent(html, "description")).toBe(standfirst);
    expect(metaContent(html, "og:description")).toBe(standfirst);
    expect(jsonLd(html).find((entry) => entry["@type"] === "NewsArticle")!.description).toBe(standfirst);
    const rss = await (await getExactly(`${server.url}/rss.xml`)).text();
    expect(rss).toContain(`<description>${standfirst}</description>`);
    const category = await (await getExactly(`${server.url}/local`)).text();
    expect(category).toContain(standfirst);
    // The preview shows it under the headline as well, from the unsaved form.
    const preview = await post(
      `${server.url}/dashboard/preview`,
      { title: "معاينة", content: "نص", category: "local", standfirst: "موجز المعاينة" },
      editor,
    );
    expect(await preview.text()).toMatch(/<p[^>]*data-testid="standfirst"[^>]*>موجز المعاينة<\/p>/);
  });

  it("without overrides og:* are the article's own; with them, the share title, description and 1200×630 picture", async () => {
    const { id } = await publish("عنوان الخبر الأصلي", { standfirst: "موجز أصلي" }, [
      { field: "images", name: "cover.png", bytes: await pngBytes(1600, 900) },
    ]);
    let html = await (await get(`${server.url}/news/${id}`)).text();
    expect(metaContent(html, "og:title")!.startsWith("عنوان الخبر الأصلي")).toBe(true);
    expect(metaContent(html, "twitter:title")).toBeUndefined();
    expect(metaContent(html, "og:image")).toMatch(/news-images\/.*-1200w\.webp$/);

    const form = articleForm({
      title: "عنوان الخبر الأصلي",
      content: "نص",
      category: "local",
      status: "published",
      standfirst: "موجز أصلي",
      shareTitle: "عنوان للمشاركة",
      shareDescription: "وصف للمشاركة",
    });
    form.append("shareImage", new Blob([new Uint8Array(await pngBytes(900, 900, "#cc3300"))]), "share.png");
    expect((await put(id, form)).status).toBe(200);
    await vi.waitFor(async () => {
      html = await (await get(`${server.url}/news/${id}`)).text();
      expect(metaContent(html, "og:title")).toBe("عنوان للمشاركة");
    });
    expect(metaContent(html, "twitter:title")).toBe("عنوان للمشاركة");
    expect(metaContent(html, "og:description")).toBe("وصف للمشاركة");
    expect(metaContent(html, "twitter:description")).toBe("وصف للمشاركة");
    expect(metaContent(html, "description")).toBe("موجز أصلي");
    expect(metaContent(html, "og:image")).toMatch(
      new RegExp(`^${BASE}/media/share-images/[0-9a-f]{16}-share-1200x630\\.png$`),
    );
    expect(metaContent(html, "og:image:width")).toBe("1200");
    expect(metaContent(html, "og:image:height")).toBe("630");
    expect(html).toContain("<title>عنوان الخبر الأصلي");
    const picture = await getExactly(`${server.url}${new URL(metaContent(html, "og:image")!).pathname}`);
    expect(picture.status).toBe(200);
  });

  it("noindex: robots noindex, out of the sitemap and the news sitemap, still in RSS", async () => {
    const { id } = await publish("خبر لا تفهرسه محركات البحث", { noindex: "on" });
    const html = await (await get(`${server.url}/news/${id}`)).text();
    expect(metaContent(html, "robots")).toMatch(/^noindex/);
    const canonical = `/news/${id}/`;
    expect(await (await getExactly(`${server.url}/sitemap.xml`)).text()).not.toContain(canonical);
    expect(await (await getExactly(`${server.url}/news-sitemap.xml`)).text()).not.toContain(canonical);
    expect(await (await getExactly(`${server.url}/rss.xml`)).text()).toContain(canonical);
    const indexed = await publish("خبر تفهرسه محركات البحث");
    expect(await (await getExactly(`${server.url}/news-sitemap.xml`)).text()).toContain(`/news/${indexed.id}/`);
  });

  it("a revision restores the standfirst, slug and share fields", async () => {
    const { id } = await publish("عنوان أول", { standfirst: "موجز أول", shareTitle: "مشاركة أولى" });
    const edit = articleForm({
      title: "عنوان ثان",
      content: "نص",
      category: "local",
      status: "published",
      standfirst: "موجز ثان",
      slug: "رابط ثان",
      noindex: "on",
    });
    expect((await put(id, edit)).status).toBe(200);
    const edited = await db
      .selectFrom("news")
      .select(["standfirst", "slug", "share_title", "noindex"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(edited).toEqual({ standfirst: "موجز ثان", slug: "رابط-ثان", share_title: null, noindex: 1 });
    const revision = await db
      .selectFrom("news_revisions")
      .select("id")
      .where("news_id", "=", id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const restored = await post(
      `${server.url}/edit-news/${id}/revisions/${revision.id}`,
      { mode: "full", baseVersion: String(await storedVersion(db, id)) },
      { cookie: editor.cookie },
    );
    expect(restored.status).toBe(302);
    const back = await db
      .selectFrom("news")
      .select(["title", "standfirst", "slug", "share_title", "noindex"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(back).toEqual({
      title: "عنوان أول",
      standfirst: "موجز أول",
      slug: "عنوان-أول",
      share_title: "مشاركة أولى",
      noindex: 0,
    });
  });

  it("the API gives the fields back for the form", async () => {
    const { id } = await publish("خبر للواجهة البرمجية", { standfirst: "موجز", shareDescription: "وصف" });
    const answer = await get(`${server.url}/api/news/${id}`, editor);
    expect(await answer.json()).toMatchObject({
      standfirst: "موجز",
      slug: "خبر-للواجهة-البرمجية",
      shareTitle: null,
      shareDescription: "وصف",
      shareImage: null,
      noindex: false,
    });
  });

  it("bad fields are refused with Arabic messages by field, and nothing stored changes", async () => {
    const { id } = await publish("خبر لا يتغير", { standfirst: "موجز باق" });
    const before = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const cases: [Record<string, string>, string, string][] = [
      [{ standfirst: "أ".repeat(301) }, "standfirst", storyMessages.standfirstTooLong],
      [{ slug: "ب".repeat(SLUG_MAX + 1) }, "slug", storyMessages.slugTooLong],
      [{ shareTitle: "ت".repeat(121) }, "shareTitle", storyMessages.shareTitleTooLong],
      [{ shareDescription: "ث".repeat(301) }, "shareDescription", storyMessages.shareDescriptionTooLong],
      [{ removeShareImage: "on" }, "shareImage", storyMessages.noShareImageToRemove],
    ];
    for (const [fields, field, message] of cases) {
      const { status, json } = await put(
        id,
        articleForm({ title: "تغيير", content: "نص", category: "local", status: "published", ...fields }),
      );
      expect(status, field).toBe(400);
      expect(json.error?.fields?.[field], field).toBe(message);
    }
    const notPicture = articleForm({ title: "تغيير", content: "نص", category: "local", status: "published" });
    notPicture.append("shareImage", new Blob([new TextEncoder().encode("MZ not a picture")]), "share.png");
    const refused = await put(id, notPicture);
    expect(refused.status).toBe(400);
    expect(refused.json.error?.fields?.shareImage).toMatch(/صورة/);
    expect(await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).toEqual(before);
  });
});

describe("author pages", () => {
  it("a newsroom member saves a photo, bio and links; the author page shows them, its JSON-LD is a ProfilePage about a Person with sameAs", async () => {
    const form = new FormData();
    form.append("intent", "profile");
    form.append("bio", "صحافية من طرابلس تكتب عن الثقافة");
    form.append("links", "https://x.com/reem\nhttps://example.org/reem");
    form.append("photo", new Blob([new Uint8Array(await pngBytes(800, 600))]), "me.png");
    const saved = await post(`${server.url}/dashboard/account`, form, editor);
    expect(saved.status).toBe(200);
    const name = "ريم الكاتبة";
    await publish("خبر بقلم ريم");
    const page = await (await getExactly(`${server.url}/author/${encodeURIComponent(name)}`)).text();
    expect(page).toContain("صحافية من طرابلس تكتب عن الثقافة");
    expect(page).toContain('href="https://x.com/reem"');
    expect(page).toMatch(/<img[^>]*src="\/media\/author-photos\/[0-9a-f]{16}-photo-400x400\.png"/);
    const profile = jsonLd(page).find((entry) => entry["@type"] === "ProfilePage")!;
    expect(profile.mainEntity).toMatchObject({
      "@type": "Person",
      name,
      sameAs: ["https://x.com/reem", "https://example.org/reem"],
      description: "صحافية من طرابلس تكتب عن الثقافة",
    });
    const article = await (
      await get(
        `${server.url}/news/${(await db.selectFrom("news").select("id").where("title", "=", "خبر بقلم ريم").executeTakeFirstOrThrow()).id}`,
      )
    ).text();
    const author = (
      jsonLd(article).find((entry) => entry["@type"] === "NewsArticle")!.author as Record<string, unknown>[]
    )[0];
    expect(author).toMatchObject({ "@type": "Person", url: `${BASE}/author/${encodeURIComponent(name)}` });
  });

  it("javascript: links, overlong bios and a file that is no picture are refused, nothing stored changes; readers have no profile to save", async () => {
    const before = await db
      .selectFrom("user")
      .select(["image", "bio", "links"])
      .where("email", "=", "story@example.com")
      .executeTakeFirstOrThrow();
    const cases: [Record<string, string>, string][] = [
      [{ links: "javascript:alert(1)" }, storyMessages.linkInvalid],
      [{ bio: "ب".repeat(501) }, storyMessages.bioTooLong],
      [{ links: Array.from({ length: 6 }, (_, i) => `https://e.org/${i}`).join("\n") }, storyMessages.tooManyLinks],
    ];
    for (const [fields, message] of cases) {
      const form = new FormData();
      form.append("intent", "profile");
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      const answer = await post(`${server.url}/dashboard/account`, form, editor);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain(message);
    }
    const notPicture = new FormData();
    notPicture.append("intent", "profile");
    notPicture.append("photo", new Blob([new TextEncoder().encode("not a picture")]), "me.png");
    expect((await post(`${server.url}/dashboard/account`, notPicture, editor)).status).toBe(400);
    expect(
      await db
        .selectFrom("user")
        .select(["image", "bio", "links"])
        .where("email", "=", "story@example.com")
        .executeTakeFirstOrThrow(),
    ).toEqual(before);

    const reader = {
      cookie: await signedInAs(
        db,
        { baseUrl: BASE, authSecret: server.env.AUTH_SECRET },
        { email: "reader@example.com", username: "قارئ", role: "user" },
      ),
    };
    const form = new FormData();
    form.append("intent", "profile");
    form.append("bio", "نبذة");
    expect((await post(`${server.url}/dashboard/account`, form, reader)).status).toBe(403);
  });
});
