import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE } from "~/server/platform/cache-control.server";
import type { DB } from "~/server/db/db.server";
import {
  basedOn,
  canonicalPath,
  deletePublishedArticle,
  publishArticle,
  publishForm,
  storedVersion,
} from "../../harness/articles";
import { launchChromium, pageWeight } from "../../harness/page-weight";
import { signedInAs } from "../../harness/accounts";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin = "";
let articleId = "";

const publish = (title: string, category = "local", image = false) =>
  publishArticle(
    server.url,
    { cookie: admin },
    { title, category, image: image ? { width: 640, height: 360 } : undefined },
  );

beforeAll(async () => {
  // The longest page lifetime: no cached page of this file expires while a test runs.
  ({ server, db } = await startServerAndDb({ PAGE_CACHE_SECONDS: "300" }));
  admin = await signedInAs(db, server.site, { email: "chief@example.com", username: "رئيسة التحرير", role: "admin" });
  articleId = await publish("خبر الاختبار الأول", "local", true);
});
afterAll(() => stopServerAndDb({ server, db }));

const visit = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: "manual" });

describe("Cache-Control per route", () => {
  it("chooses a deliberate policy for every kind of response", async () => {
    const assetPath = /src="(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.css)"/.exec(await (await visit("/")).text());
    const asset = assetPath?.[1] ?? assetPath?.[2];
    const media = (await db.selectFrom("news").select("images").where("id", "=", articleId).executeTakeFirstOrThrow())
      .images;
    const cases: [string, Promise<Response>, string][] = [
      ["anonymous home", visit("/"), CACHE.publicPage],
      ["anonymous article", visit(await canonicalPath(db, articleId)), CACHE.publicPage],
      // Its 301 to the readable address is as public as the page (a stale one leads on to the new slug).
      ["article's id address", visit(`/news/${articleId}`), CACHE.publicPage],
      ["anonymous category", visit("/local"), CACHE.publicPage],
      ["signed-in home", visit("/", { cookie: admin }), CACHE.personal],
      ["signed-in article", visit(await canonicalPath(db, articleId), { cookie: admin }), CACHE.personal],
      ["dashboard", visit("/dashboard", { cookie: admin }), CACHE.personal],
      ["sign-in page", visit("/autenction"), CACHE.personal],
      ["hashed asset", visit(asset!), CACHE.asset],
      ["media", visit(JSON.parse(media)[0] as string), CACHE.media],
      ["visit count", fetch(`${server.url}/api/news/${articleId}/visit`, { method: "POST" }), CACHE.never],
      ["site visit", fetch(`${server.url}/api/site-visit`, { method: "POST" }), CACHE.never],
    ];
    for (const [name, response, policy] of cases) {
      const res = await response;
      expect(res.headers.get("cache-control"), name).toBe(policy);
    }
    const stream = await fetch(`${server.url}/api/breaking/stream`);
    expect(stream.headers.get("cache-control")).toBe("no-cache, no-transform");
    await stream.body?.cancel();
  });

  it("answers 304 to a matching ETag for pages and media", async () => {
    await (await visit("/who")).text();
    const page = await visit("/who");
    const etag = page.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await visit("/who", { "if-none-match": etag! })).status).toBe(304);
    const media = JSON.parse(
      (await db.selectFrom("news").select("images").where("id", "=", articleId).executeTakeFirstOrThrow()).images,
    )[0] as string;
    const first = await visit(media);
    // fetch() adds "Cache-Control: no-cache" to conditional requests unless one is given, as browsers revalidating do not.
    expect(
      (await visit(media, { "if-none-match": first.headers.get("etag")!, "cache-control": "max-age=0" })).status,
    ).toBe(304);
  });

  it("compresses HTML, JS, CSS, JSON and XML of 1 KB and more with brotli or gzip, smaller answers and the event stream never", async () => {
    const plainSize = async (path: string) =>
      (await (await visit(path, { "accept-encoding": "identity" })).arrayBuffer()).byteLength;
    const browser = await launchChromium();
    const assets = (await pageWeight(browser, server.url, "/").finally(() => browser.close())).files.filter((file) =>
      /^\/assets\/.*\.(js|css)$/.test(file),
    );
    expect(assets.filter((a) => a.endsWith(".js")).length).toBeGreaterThan(3);
    expect(assets.filter((a) => a.endsWith(".css"))).toHaveLength(1);
    const paths = ["/contact", ...assets, "/api/breaking", "/rss.xml", "/sitemap.xml"];
    const sizes = new Map<string, number>();
    for (const path of paths) sizes.set(path, await plainSize(path));
    expect([...sizes.values()].filter((size) => size < 1024).length, "a small answer among them").toBeGreaterThan(0);
    for (const path of paths) {
      for (const encoding of ["br", "gzip"]) {
        const res = await visit(path, { "accept-encoding": encoding });
        expect(res.headers.get("content-encoding"), `${path} ${encoding}`).toBe(
          sizes.get(path)! >= 1024 ? encoding : null,
        );
      }
    }
    const stream = await fetch(`${server.url}/api/breaking/stream`, { headers: { "accept-encoding": "br, gzip" } });
    expect(stream.headers.get("content-encoding")).toBeNull();
    await stream.body?.cancel();
  });
});

describe("the page cache", () => {
  it("never gives a visitor what a signed-in admin saw, nor an admin the visitors' copy", async () => {
    const path = await canonicalPath(db, articleId);
    const adminView = await visit(path, { cookie: admin });
    expect(adminView.headers.get("x-cache")).toBeNull();
    expect(await adminView.text()).toContain('data-testid="admin-tools"');
    for (let i = 0; i < 2; i++) {
      const visitorView = await visit(path);
      const html = await visitorView.text();
      expect(html).not.toContain('data-testid="admin-tools"');
      // The admin's own account slot (sign-out) never reaches a visitor; the byline names her on every copy.
      expect(html).not.toContain('action="/sign-out"');
      expect(html).toContain('href="/autenction"');
    }
    const again = await visit(path);
    expect(again.headers.get("x-cache")).toBe("HIT");
    const adminAgain = await visit(path, { cookie: admin });
    expect(adminAgain.headers.get("x-cache")).toBeNull();
    expect(await adminAgain.text()).toContain('data-testid="admin-tools"');
  });

  it("publishing, editing and deleting empty the cached pages that show the article", async () => {
    await visit("/");
    expect((await visit("/")).headers.get("x-cache")).toBe("HIT");
    const title = "خبر جديد يمحو الصفحات المخزنة";
    const id = await publish(title);
    const fresh = await visit("/");
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    expect(await fresh.text()).toContain(title);

    expect((await visit("/")).headers.get("x-cache")).toBe("HIT");
    await fetch(`${server.url}/api/news/${id}`, {
      method: "PUT",
      body: basedOn(await storedVersion(db, id), publishForm(`${title} (معدّل)`)),
      headers: { cookie: admin },
    });
    expect(await (await visit("/")).text()).toContain(`${title} (معدّل)`);

    await deletePublishedArticle(server.url, { cookie: admin }, id);
    expect(await (await visit("/")).text()).not.toContain(title);
  });

  it("renders a page once for a rush of readers arriving together, and gives them all that copy", async () => {
    // Independent of when each request arrives: one that comes while the page renders waits for that
    // render (PageCache.lookup's "wait"), one that comes after gets the stored copy, which cannot expire
    // within the 300 s lifetime; publishing emptied the cache, so the first request is the one MISS.
    const id = await publish("خبر ينتشر على واتساب");
    const path = await canonicalPath(db, id);
    const rush = await Promise.all(Array.from({ length: 30 }, () => visit(path)));
    const bodies = await Promise.all(rush.map((response) => response.text()));
    expect(rush.map((response) => response.status)).toEqual(Array(30).fill(200));
    expect(rush.filter((response) => response.headers.get("x-cache") === "MISS")).toHaveLength(1);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toContain("خبر ينتشر على واتساب");
  });
});
