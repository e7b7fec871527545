import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { settingsMessages } from "~/lib/newsroom-messages";
import { documentFromPlainText } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { articleForm, createTestArticle } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import type { TestServer, TestSite } from "../../harness/test-server";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * The site's own settings on two server processes sharing one database, the page cache on:
 * an admin's change through A reaches every page B serves (header, footer, share tags, JSON-LD, the
 * feed, the manifest, the information pages) within seconds, through the outbox.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let cookie = "";
let articleId = "";

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({ PAGE_CACHE_SECONDS: "300" }));
  cookie = await signedInAs(db, a.site, { email: "owner@example.com", username: "صاحبة الموقع", role: "admin" });
  articleId = (await createTestArticle(db, { title: "خبر بلا صورة", content: "نص الخبر", category: "local" })).id;
}, 120_000);
afterAll(() => stopServerAndDb({ site, db }));

const within3s = { timeout: 3_000, interval: 25 };
const text = async (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${server.url}${path}`, { headers })).text();
const meta = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];
const EMPTY_PAGE = JSON.stringify({ type: "doc", content: [] });

function settingsForm(fields: Record<string, string>, files: { field: string; bytes: Buffer }[] = []): FormData {
  return articleForm(
    {
      name: "صدى البلد",
      page_who: EMPTY_PAGE,
      page_contact: EMPTY_PAGE,
      page_privacy: EMPTY_PAGE,
      page_development: EMPTY_PAGE,
      ...fields,
    },
    files.map(({ field, bytes }) => ({ field, name: `${field}.png`, bytes: new Uint8Array(bytes), type: "image/png" })),
  );
}

async function save(server: TestServer, form: FormData): Promise<Response> {
  return fetch(`${server.url}/dashboard/settings`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: server.url },
    redirect: "manual",
  });
}

describe("a site never set up", () => {
  it("shows a neutral name, no social links, empty information pages, and leads its admin to the settings", async () => {
    const home = await text(b, "/");
    expect(home).toContain(`<title>${settingsMessages.neutralSiteName}</title>`);
    expect(home).not.toContain('data-testid="footer-social"');
    expect(home).not.toContain("facebook.com");
    expect(await text(b, "/who")).toContain(settingsMessages.infoPageEmpty);
    expect(await text(b, "/dashboard", { cookie })).toContain(settingsMessages.settingsSetupBanner);
    expect(await text(b, "/dashboard/settings", { cookie })).toContain(settingsMessages.settingsTitle);
  });
});

describe("an admin's change through A", () => {
  it("reaches the header, footer, share tags, JSON-LD, feed, manifest and pages B serves within seconds", async () => {
    // B holds its pages and lists in cache first: the change must empty them.
    await text(b, "/");
    // The article's own outbox event may still reach B and empty its cache once: wait until a HIT holds.
    await vi.waitFor(
      async () => expect((await fetch(`${b.url}/news/${articleId}`)).headers.get("x-cache")).toBe("HIT"),
      within3s,
    );
    await text(b, "/rss.xml");

    const who = documentFromPlainText("صدى البلد غرفة أخبار مستقلة في حلبا.");
    const response = await save(
      a,
      settingsForm(
        {
          tagline: "أخبار عكار أولاً",
          social_facebook: "https://www.facebook.com/sada.albalad",
          contactEmail: "desk@sada.example",
          footerText: "نص التذييل الجديد",
          page_who: JSON.stringify(who),
        },
        [
          { field: "logo", bytes: await pngBytes(600, 600, "#0a7") },
          { field: "shareImage", bytes: await pngBytes(1600, 900, "#a70") },
        ],
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard/settings?saved=1");

    await vi.waitFor(
      async () => expect(await text(b, `/news/${articleId}`)).toContain('data-testid="site-name">صدى البلد<'),
      within3s,
    );
    const article = await text(b, `/news/${articleId}`);
    expect(article).toContain("<title>خبر بلا صورة | صدى البلد</title>");
    expect(meta(article, "og:site_name")).toBe("صدى البلد");
    expect(meta(article, "og:image")).toMatch(/\/media\/site-images\/[^"]+-shareimage-1200x630\.png$/);
    expect(article).toMatch(/<img src="\/media\/site-images\/[^"]+-logo-256x256\.png"/);
    expect(article).toContain('href="https://www.facebook.com/sada.albalad"');
    expect(article).toContain("desk@sada.example");
    expect(article).toContain("نص التذييل الجديد");
    expect(article).toContain('"publisher":{"@type":"Organization","name":"صدى البلد"');
    expect(await text(b, "/rss.xml")).toContain("<title>صدى البلد</title>");
    const manifest = JSON.parse(await text(b, "/manifest.webmanifest")) as { name: string; icons: { src: string }[] };
    expect(manifest.name).toBe("صدى البلد");
    for (const icon of manifest.icons) expect((await fetch(`${b.url}${icon.src}`)).status, icon.src).toBe(200);
    expect(await text(b, "/who")).toContain("صدى البلد غرفة أخبار مستقلة في حلبا.");
    expect(await text(b, "/dashboard", { cookie })).not.toContain(settingsMessages.settingsSetupBanner);
    const sitemap = await text(b, "/sitemap.xml");
    expect(sitemap).toMatch(/<loc>[^<]*\/who<\/loc>\s*<lastmod>/);
  });

  it("shows a name with markup as text everywhere, and refuses a javascript: link without changing anything", async () => {
    expect((await save(a, settingsForm({ name: `<script>alert(1)</script> صدى` }))).status).toBe(302);
    await vi.waitFor(
      async () => expect(await text(b, "/")).toContain("&lt;script&gt;alert(1)&lt;/script&gt; صدى"),
      within3s,
    );
    for (const path of ["/", `/news/${articleId}`, "/rss.xml"])
      expect(await text(b, path), path).not.toContain("<script>alert(1)");
    // JSON, not a page: the name is a string value there.
    expect((JSON.parse(await text(b, "/manifest.webmanifest")) as { name: string }).name).toBe(
      "<script>alert(1)</script> صدى",
    );

    const before = await db.selectFrom("site_settings").selectAll().execute();
    const refused = await save(a, settingsForm({ name: "اسم آخر", social_x: "javascript:alert(1)" }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(settingsMessages.settingsLinkInvalid);
    expect(await db.selectFrom("site_settings").selectAll().execute()).toEqual(before);
  });
});
