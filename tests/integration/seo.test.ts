import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { articlePath, wirePath } from "~/lib/news";
import { slugOf } from "~/lib/story-fields";
import { demoSettings } from "~/server/demo/demo-settings";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";
import type { DB } from "~/server/db/db.server";
import { publishArticle } from "../../harness/articles";
import { signedInAs } from "../../harness/accounts";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let cookie = "";
const BASE = "https://akhbar.example";

beforeAll(async () => {
  // BASE_URL is the public address; the server still listens on 127.0.0.1, behind a proxy there.
  ({ server, db } = await startServerAndDb({ BASE_URL: BASE, TRUST_PROXY: "loopback" }));
  cookie = await signedInAs(
    db,
    { baseUrl: BASE, authSecret: server.env.AUTH_SECRET },
    { email: "seo@example.com", username: "محرر", role: "admin" },
  );
  // The site set up as the demo: its name and words come from the settings.
  await writeSiteSettings(db, demoSettings, null);
  await vi.waitFor(
    async () =>
      expect(await (await fetch(`${server.url}/`)).text()).toContain(
        `<title>${demoSettings.name} | ${demoSettings.tagline}</title>`,
      ),
    { timeout: 5_000, interval: 50 },
  );
});
afterAll(() => stopServerAndDb({ server, db }));

function metaContent(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&amp;/g, "&").replace(/&quot;/g, '"');
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

const publish = (title: string, category = "local", withImage = true) =>
  publishArticle(
    server.url,
    { cookie, origin: BASE },
    {
      title,
      content: `${"نص الخبر الطويل ".repeat(20)}\n\nفقرة ثانية.`,
      category,
      image: withImage ? { width: 1600, height: 900 } : undefined,
    },
  );

/** The article's readable address (decision 033): `/news/{id}/{slug}`. */
const canonicalPath = async (id: string) => {
  const { slug } = await db.selectFrom("news").select("slug").where("id", "=", id).executeTakeFirstOrThrow();
  return `/news/${id}/${encodeURIComponent(slug!)}`;
};

const page = async (path: string, headers: Record<string, string> = {}) =>
  (await fetch(`${server.url}${path}`, { headers })).text();

describe("article page metadata", () => {
  it("carries Open Graph, article and Twitter tags with absolute URLs, a shortlink and a ≥1200 px image", async () => {
    const id = await publish("مهرجان طرابلس للكتاب يفتح أبوابه");
    const html = await page(`/news/${id}`);
    const { short_id } = await db
      .selectFrom("short_links")
      .select("short_id")
      .where("news_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(html).toContain(`<title>مهرجان طرابلس للكتاب يفتح أبوابه | أخبار الشمال</title>`);
    expect(html).toContain(`<link rel="canonical" href="${BASE}${await canonicalPath(id)}"/>`);
    expect(html).toContain(`<link rel="shortlink" href="${BASE}/${short_id}"/>`);
    expect(metaContent(html, "og:type")).toBe("article");
    expect(metaContent(html, "og:url")).toBe(`${BASE}${await canonicalPath(id)}`);
    expect(metaContent(html, "og:site_name")).toBe("أخبار الشمال");
    expect(metaContent(html, "og:locale")).toBe("ar_LB");
    expect(metaContent(html, "og:description")).toHaveLength(100);
    expect(metaContent(html, "og:image")).toMatch(
      new RegExp(`^${BASE}/media/news-images/[0-9a-f]{16}-photo-1200w\\.webp$`),
    );
    expect(metaContent(html, "og:image:width")).toBe("1200");
    expect(metaContent(html, "og:image:height")).toBe("675");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "article:published_time")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(metaContent(html, "article:modified_time")).toMatch(/Z$/);
    expect(metaContent(html, "article:section")).toBe("أخبار محلية");
    expect(metaContent(html, "robots")).toBe("max-image-preview:large");
  });

  it("has valid NewsArticle and BreadcrumbList JSON-LD, safe against </script> in titles", async () => {
    const title = `خبر فيه </script><script>alert(1)</script> & "علامات"`;
    const id = await publish(title, "sports");
    const html = await page(`/news/${id}`);
    expect(html).not.toContain("<script>alert(1)</script>");
    const [article, breadcrumbs] = jsonLd(html);
    expect(article).toMatchObject({
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: title,
    });
    // What Google's article guide recommends; the page's own tags say the rest.
    // And its description: the standfirst, or the start of the text (decision 033).
    expect(Object.keys(article!).sort()).toEqual([
      "@context",
      "@type",
      "author",
      "dateModified",
      "datePublished",
      "description",
      "headline",
      "image",
      "publisher",
    ]);
    expect(article!.image).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${BASE}/media/`))]));
    for (const key of ["datePublished", "dateModified"])
      expect(String(article![key])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    expect(article!.author).toEqual([
      { "@type": "Person", name: "محرر", url: `${BASE}/author/${encodeURIComponent("محرر")}` },
    ]);
    expect(breadcrumbs).toMatchObject({
      "@type": "BreadcrumbList",
      itemListElement: [
        { position: 1, item: `${BASE}/` },
        { position: 2, name: "رياضة", item: `${BASE}/sports` },
        { position: 3, name: title, item: `${BASE}${await canonicalPath(id)}` },
      ],
    });
  });
});

describe("every page", () => {
  it("has its own Arabic title, a description and an absolute canonical URL", async () => {
    const titles = new Set<string>();
    for (const path of ["/", "/local", "/educatonal", "/breaking", "/who", "/contact", "/privacy", "/development"]) {
      const html = await page(path);
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      expect(title, path).toMatch(/[\u0600-\u06FF]/);
      titles.add(title!);
      expect(metaContent(html, "description"), path).toMatch(/[\u0600-\u06FF]/);
      expect(html, path).toContain(`<link rel="canonical" href="${BASE}${path}"/>`);
      expect(metaContent(html, "og:image"), path).toMatch(new RegExp(`^${BASE}/`));
      expect(metaContent(html, "robots"), path).toBe("max-image-preview:large");
    }
    expect(titles.size).toBe(8);
  });

  it("keeps the dashboard, edit, sign-in and search pages out of search engines", async () => {
    const id = await publish("خبر للتعديل", "local", false);
    for (const [path, headers] of [
      ["/dashboard", { cookie }],
      [`/edit-news/${id}`, { cookie }],
      ["/autenction", {}],
      ["/search?query=طرابلس", {}],
    ] as const) {
      const html = await page(path, headers);
      expect(metaContent(html, "robots"), path).toMatch(/^noindex/);
    }
  });

  it("lists the breaking items as a schema.org ItemList", async () => {
    const id = await publish("عاجل: إقفال طريق الكورة", "breaking", false);
    const [list] = jsonLd(await page("/breaking"));
    expect(list).toMatchObject({
      "@type": "ItemList",
      itemListElement: [
        {
          position: 1,
          url: `${BASE}${wirePath(articlePath(id, slugOf("عاجل: إقفال طريق الكورة")))}`,
          name: "عاجل: إقفال طريق الكورة",
        },
      ],
    });
  });

  it("serves a web app manifest in Arabic, right to left, with icons", async () => {
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ lang: "ar", dir: "rtl", name: "أخبار الشمال" });
    for (const icon of manifest.icons as { src: string }[])
      expect((await fetch(`${server.url}${icon.src}`)).status).toBe(200);
    for (const file of ["/favicon.svg", "/favicon-32.png", "/apple-touch-icon.png", "/og-default.png"])
      expect((await fetch(`${server.url}${file}`)).status, file).toBe(200);
  });
});
