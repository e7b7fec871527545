/**
 * The site at its own address, whatever address a reader used: pages asked for at another of its
 * addresses are sent to BASE_URL's (probes and trusted proxies excepted), a form refused there says
 * which address to use, and a reader signs in in Chromium, directly and through deploy/nginx.conf
 * on a port that is not 80 or 443.
 */
import { chromium, devices, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestAccount, TEST_PASSWORD } from "../../harness/accounts";
import { CHROMIUM_ARGS, chromiumPath } from "../../harness/chromium";
import { nginxInstalled, startSiteBehindNginx, type SiteBehindNginx } from "../../harness/nginx";
import { freePort, startTestServer, type TestServer } from "../../harness/test-server";
import { sendWholeBody } from "../../harness/raw-http";
import { createTestArticle } from "../../harness/articles";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

/** Signs in through the form at `url`/autenction and resolves with the page it lands on. */
async function signInWithBrowser(url: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${url}/autenction`);
  await page.getByLabel(newsroomMessages.email).fill(email);
  await page.getByLabel(newsroomMessages.password).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
  await page.getByRole("banner").getByRole("button", { name: messages.signOut }).waitFor({ timeout: 10_000 });
  return page;
}

describe("BASE_URL=http://localhost:PORT, opened at http://127.0.0.1:PORT", () => {
  let server: TestServer;
  let proxied: TestServer;
  let db: DB;
  let site: string;
  let other: string;

  beforeAll(async () => {
    const port = await freePort();
    site = `http://localhost:${port}`;
    other = `http://127.0.0.1:${port}`;
    ({ server, db } = await startServerAndDb({ PORT: String(port), BASE_URL: site }));
    await createTestAccount(
      db,
      { baseUrl: site, authSecret: server.env.AUTH_SECRET },
      { email: "reader@example.com", username: "قارئ", role: "user" },
    );
    proxied = await startTestServer({ BASE_URL: "https://news.example.org", TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await stopServerAndDb({ server, db });
    await proxied?.stop();
  });

  it("sends pages (GET and HEAD) to the same path at BASE_URL's address with a 301", async () => {
    for (const method of ["GET", "HEAD"]) {
      for (const path of ["/", "/who?x=1", "/autenction?redirectTo=%2Fdashboard", "/api/latest"]) {
        const response = await fetch(`${other}${path}`, { method, redirect: "manual" });
        expect(response.status, `${method} ${path}`).toBe(301);
        expect(response.headers.get("location"), `${method} ${path}`).toBe(`${site}${path}`);
      }
    }
  });

  it("answers probes at any address, and leaves requests from a trusted proxy to it", async () => {
    for (const path of ["/healthz", "/readyz"])
      expect((await fetch(`${other}${path}`, { redirect: "manual" })).status, path).toBe(200);
    expect((await fetch(`${proxied.url}/who`, { redirect: "manual" })).status).toBe(200);
  });

  it("says which address to use when a form is sent from the other one", async () => {
    const page = await fetch(`${other}/autenction`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: other, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=signin&email=reader%40example.com&password=x",
    });
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain(messages.otherAddressTitle);
    expect(html).toContain(site);
    expect(html).not.toContain(messages.forbiddenBody);
    const api = await fetch(`${other}/api/site-visit`, { method: "POST", headers: { origin: other } });
    expect(api.status).toBe(403);
    expect(((await api.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(`^${messages.otherAddressRequest}.*${site}`),
    );
  });

  it("refuses in Arabic, page or JSON, a form from the site's page that a proxy forwards with another Host, and logs why", async () => {
    const forwarded = (path: string, accept: string) =>
      sendWholeBody(`${proxied.url}${path}`, {
        method: "POST",
        headers: {
          host: "akhbar-upstream:3000",
          origin: "https://news.example.org",
          accept,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: Buffer.from("intent=signin&email=reader%40example.com&password=x"),
      });
    const page = await forwarded("/autenction", "text/html");
    const json = await forwarded("/autenction", "application/json");
    // The API's resource routes React Router never checks: answered as before, here signed out.
    const api = await forwarded("/api/news", "application/json");
    if (page.kind !== "complete" || json.kind !== "complete" || api.kind !== "complete")
      throw new Error(`no answer: ${JSON.stringify([page, json, api])}`);
    console.log(
      "another Host forwarded:",
      JSON.stringify([page, json, api].map((answer) => `${answer.status} ${answer.headers["content-type"]}`)),
    );
    expect([page.status, page.headers["content-type"], page.headers["cache-control"]]).toEqual([
      400,
      "text/html; charset=utf-8",
      expect.stringContaining("no-store"),
    ]);
    expect(page.body).toContain(`<html lang="ar" dir="rtl">`);
    expect(page.body).toContain(messages.forwardedHostTitle);
    expect(page.body).not.toContain("Bad Request");
    expect([json.status, json.headers["content-type"]]).toEqual([400, "application/json; charset=utf-8"]);
    expect(JSON.parse(json.body)).toEqual({ error: { code: "bad-request", message: messages.forwardedHostRequest } });
    expect(api.status).toBe(401);
    const logged = () =>
      proxied
        .output()
        .split("\n")
        .filter((line) => line.includes("arrived for another host than the page's"));
    await expect.poll(() => logged().length).toBe(2);
    for (const line of logged())
      expect(line).toMatch(/"origin":"https:\/\/news\.example\.org","sentTo":"http:\/\/akhbar-upstream:3000"/);
  });

  it("signs a reader in who opened the other address in Chromium", { timeout: 60_000 }, async () => {
    const page = await signInWithBrowser(other, "reader@example.com");
    expect(page.url()).toBe(`${site}/`);
  });
});

describe.skipIf(!nginxInstalled())("behind deploy/nginx.conf on a port that is not 80 or 443", () => {
  let site: SiteBehindNginx;
  let db: DB;

  beforeAll(async () => {
    site = await startSiteBehindNginx(1);
    db = openDatabase(site.instances[0]!.env.DATABASE_URL);
    await createTestAccount(
      db,
      { baseUrl: site.url, authSecret: site.instances[0]!.env.AUTH_SECRET },
      { email: "desk@example.com", username: "مكتب", role: "user" },
    );
  }, 60_000);
  afterAll(() => stopServerAndDb({ site, db }));

  it("signs a reader in in Chromium", { timeout: 60_000 }, async () => {
    expect(new URL(site.url).port).not.toMatch(/^(80|443|)$/);
    const page = await signInWithBrowser(site.url, "desk@example.com");
    expect(page.url()).toBe(`${site.url}/`);
  });

  it(
    "counts a reader's view of a story in Chromium, sent by nginx to the views process",
    { timeout: 60_000 },
    async () => {
      const { id } = await createTestArticle(db, { title: "خبر يقرؤه متصفح عبر الوكيل", content: "نص الخبر" });
      // A reader's browser: headless Chromium names itself HeadlessChrome, which the site counts as a crawler.
      const page = await (await browser.newContext({ userAgent: devices["Desktop Chrome"].userAgent })).newPage();
      const beacon = page.waitForResponse((response) => response.url().endsWith(`/api/news/${id}/visit`));
      await page.goto(`${site.url}/news/${id}`);
      expect((await beacon).status()).toBe(200);
      const viewsProcess = `127.0.0.1:${site.instances[0]!.env.VIEWS_PORT}`;
      // nginx logs a request once its answer has gone.
      await expect
        .poll(() => site.nginx.accessLog().filter((line) => line.includes(`/api/news/${id}/visit`)))
        .toEqual([`POST /api/news/${id}/visit 200 upstream=${viewsProcess}`]);
      await expect
        .poll(
          async () =>
            (await db.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits,
          { timeout: 10_000 },
        )
        .toBe(1);
      await page.context().close();
    },
  );
});
