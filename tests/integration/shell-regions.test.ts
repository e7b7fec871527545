import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { deletePublishedArticle, publishArticle } from "../../harness/articles";
import type { TestServer, TestSite } from "../../harness/test-server";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * The regions anonymous reader pages share are rendered once (docs/decisions/020): two processes on
 * one database, page cache off, so every page is rendered and only the kept regions could be stale.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let cookie = "";
let articleId = "";

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({ PAGE_CACHE_SECONDS: "0" }));
  cookie = await signedInAs(db, a.site, { email: "regions@example.com", username: "محرر المناطق", role: "admin" });
  articleId = await publishArticle(a.url, { cookie }, { title: "خبر تبقى مناطقه", category: "sports" });
}, 120_000);
afterAll(() => stopServerAndDb({ site, db }));

const html = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).text();
const header = (page: string) => /<header class="relative[^"]*">([\s\S]*?)<\/header>/.exec(page)?.[1] ?? "";
const sidebar = (page: string) => /<aside class="flex flex-col gap-10">([\s\S]*?)<\/aside>/.exec(page)?.[1] ?? "";
const homeSection = (page: string, category: string) =>
  new RegExp(`data-testid="section-${category}">([\\s\\S]*?)</section>`).exec(page)?.[1] ?? "";
const within2s = { timeout: 2_000, interval: 20 };

describe("regions rendered once", () => {
  it("an article published, then deleted, through A reaches the sidebar and home's sections on B within 2 s", async () => {
    expect(sidebar(await html(`${b.url}/news/${articleId}`))).toContain("خبر تبقى مناطقه");
    expect(homeSection(await html(`${b.url}/`), "sports")).toContain("خبر تبقى مناطقه");
    const id = await publishArticle(
      a.url,
      { cookie },
      { title: "خبر جديد من الخادم الأول", category: "international" },
    );
    expect(sidebar(await html(`${a.url}/news/${articleId}`))).toContain("خبر جديد من الخادم الأول");
    await vi.waitFor(
      async () => expect(sidebar(await html(`${b.url}/news/${articleId}`))).toContain("خبر جديد من الخادم الأول"),
      within2s,
    );
    await vi.waitFor(async () => {
      const home = await html(`${b.url}/`);
      expect(sidebar(home)).toContain("خبر جديد من الخادم الأول");
      expect(homeSection(home, "international")).toContain("خبر جديد من الخادم الأول");
    }, within2s);
    await deletePublishedArticle(a.url, { cookie }, id);
    await vi.waitFor(
      async () => expect(sidebar(await html(`${b.url}/news/${articleId}`))).not.toContain("خبر جديد من الخادم الأول"),
      within2s,
    );
    await vi.waitFor(
      async () =>
        expect(homeSection(await html(`${b.url}/`), "international")).not.toContain("خبر جديد من الخادم الأول"),
      within2s,
    );
  });

  it("marks the current page in the menus of each page, whatever page was rendered before", async () => {
    for (const server of [a, b]) {
      const local = header(await html(`${server.url}/local`));
      const article = header(await html(`${server.url}/news/${articleId}`));
      const home = header(await html(`${server.url}/`));
      const upper = header(await html(`${server.url}/SPORTS`));
      expect(local.match(/aria-current="page" href="[^"]*"/g)).toEqual([
        'aria-current="page" href="/local"',
        'aria-current="page" href="/local"',
      ]);
      expect(article).not.toContain("aria-current");
      expect(home.match(/aria-current="page" href="[^"]*"/g)).toEqual([
        'aria-current="page" href="/"',
        'aria-current="page" href="/"',
      ]);
      expect(upper.match(/aria-current="page" href="[^"]*"/g)).toEqual([
        'aria-current="page" href="/sports"',
        'aria-current="page" href="/sports"',
      ]);
    }
  });

  it("keeps no signed-in reader's navbar for anonymous readers, nor the other way round", async () => {
    const anonymousBefore = header(await html(`${a.url}/news/${articleId}`));
    const signedIn = header(await html(`${a.url}/news/${articleId}`, { cookie }));
    const anonymousAfter = header(await html(`${a.url}/news/${articleId}`));
    expect(signedIn).toContain('href="/dashboard"');
    expect(signedIn).not.toContain('href="/autenction"');
    for (const anonymous of [anonymousBefore, anonymousAfter]) {
      expect(anonymous).toContain('href="/autenction"');
      expect(anonymous).not.toContain('href="/dashboard"');
    }
    expect(anonymousAfter).toBe(anonymousBefore);
  });

  it("holds no nonce in a page rendered from kept regions", async () => {
    const response = await fetch(`${b.url}/news/${articleId}`);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(await response.text()).not.toContain(nonce);
  });
});
