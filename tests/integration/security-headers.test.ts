/**
 * Every kind of response carries the security headers, and every inline script of every page is
 * allowed by its response's Content-Security-Policy (by nonce or by hash), cached pages included.
 * The same policy is checked in Chromium by tests/e2e/security-headers.spec.ts.
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { settingsMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { publishArticle, canonicalPath } from "../../harness/articles";
import { signedInAs } from "../../harness/accounts";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin = "";
let reader = "";
let articleId = "";
let shortId = "";

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  const auth = server.site;
  admin = await signedInAs(db, auth, { email: "chief@example.com", username: "رئيسة التحرير", role: "admin" });
  reader = await signedInAs(db, auth, { email: "reader@example.com", username: "قارئ", role: "user" });
  articleId = await publishArticle(
    server.url,
    { cookie: admin },
    { title: "خبر بصورة", image: { width: 640, height: 360 } },
  );
  shortId = (
    await db.selectFrom("short_links").select("short_id").where("news_id", "=", articleId).executeTakeFirstOrThrow()
  ).short_id;
});
afterAll(() => stopServerAndDb({ server, db }));

const visit = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}${path}`, { redirect: "manual", ...init });

function directives(response: Response): Map<string, string[]> {
  const policy = response.headers.get("content-security-policy") ?? "";
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectSecurityHeaders(response: Response, name: string) {
  const csp = directives(response);
  expect(csp.get("script-src"), name).toBeDefined();
  expect(csp.get("script-src"), name).not.toContain("'unsafe-inline'");
  expect(csp.get("script-src"), name).not.toContain("'unsafe-eval'");
  expect(csp.get("object-src"), name).toEqual(["'none'"]);
  expect(csp.get("base-uri"), name).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors"), name).toEqual(["'none'"]);
  expect(csp.get("form-action"), name).toEqual(["'self'"]);
  expect(csp.get("connect-src"), name).toEqual(["'self'"]);
  expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
  expect(response.headers.get("referrer-policy"), name).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("strict-transport-security"), name).toBeNull();
}

const EXECUTABLE = /^(|module|text\/javascript|application\/javascript)$/i;

/** Every inline script the page would run is allowed by the response's nonce or by its hash. */
function expectInlineScriptsAllowed(html: string, response: Response, name: string) {
  const scriptSrc = directives(response).get("script-src") ?? [];
  let inline = 0;
  for (const [, attributes = "", text = ""] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const type = /\btype="([^"]*)"/.exec(attributes)?.[1] ?? "";
    if (!EXECUTABLE.test(type) || /\bsrc=/.test(attributes)) continue;
    inline += 1;
    const nonce = /\bnonce="([^"]*)"/.exec(attributes)?.[1];
    const hash = `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    const allowed = (nonce !== undefined && scriptSrc.includes(`'nonce-${nonce}'`)) || scriptSrc.includes(hash);
    expect(allowed, `${name}: inline script not allowed by ${scriptSrc.join(" ")}:\n${text.slice(0, 200)}`).toBe(true);
  }
  expect(inline, `${name} runs an inline script`).toBeGreaterThan(0);
}

describe("security headers", () => {
  it("are on pages, and every inline script is allowed by the page's own policy", async () => {
    const pages: [string, string, Record<string, string>][] = [
      ["home", "/", {}],
      ["category", "/local", {}],
      ["article", await canonicalPath(db, articleId), {}],
      ["search", `/search?query=${encodeURIComponent("خبر")}`, {}],
      ["info page", "/who", {}],
      ["signed-in home", "/", { cookie: admin }],
      ["sign-in", "/autenction", {}],
      ["dashboard", "/dashboard", { cookie: admin }],
      ["edit page", `/edit-news/${articleId}`, { cookie: admin }],
      ["404", "/no-such-page", {}],
      ["403", "/dashboard", { cookie: reader }],
    ];
    for (const [name, path, headers] of pages) {
      const response = await visit(path, { headers });
      expectSecurityHeaders(response, name);
      expectInlineScriptsAllowed(await response.text(), response, name);
    }
  });

  it("give every response of a cached page a policy that allows it, and a cached page holds no nonce", async () => {
    await (await visit("/sports")).text();
    for (let i = 0; i < 2; i++) {
      const response = await visit("/sports");
      expect(response.headers.get("x-cache")).toBe("HIT");
      expectSecurityHeaders(response, "cached page");
      const html = await response.text();
      expectInlineScriptsAllowed(html, response, "cached page");
      expect(html).not.toMatch(/\bnonce=/);
      // It holds no nonce'd script, so its policy names no nonce (one nobody uses would allow nothing more).
      expect(
        directives(response)
          .get("script-src")
          ?.some((source) => source.startsWith("'nonce-")),
      ).toBe(false);
    }
    const etag = (await visit("/sports")).headers.get("etag")!;
    const notModified = await visit("/sports", { headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expectSecurityHeaders(notModified, "304");
  });

  it("are on the API, the event stream, files, media, redirects and refusals", async () => {
    const home = await (await visit("/")).text();
    const script = /\/assets\/[^"']+\.js/.exec(home)?.[0];
    const image = JSON.parse(
      (await db.selectFrom("news").select("images").where("id", "=", articleId).executeTakeFirstOrThrow()).images,
    )[0] as string;
    const responses: [string, Promise<Response>, number][] = [
      ["JSON", visit("/api/breaking"), 200],
      ["JSON page", visit("/api/latest?category=local&page=1"), 200],
      [
        "visit count",
        visit(`/api/news/${articleId}/visit`, {
          method: "POST",
          body: new URLSearchParams({ reader: "headers-reader-000001" }),
        }),
        200,
      ],
      ["route data", visit("/local.data"), 200],
      ["feed", visit("/rss.xml"), 200],
      ["hashed asset", visit(script!), 200],
      ["static file", visit("/favicon.svg"), 200],
      ["media", visit(image), 200],
      ["missing media", visit("/media/news-images/none.webp"), 404],
      ["HEAD", visit("/", { method: "HEAD" }), 200],
      ["permanent redirect", visit("/educational"), 301],
      ["sign-in redirect", visit("/dashboard"), 302],
      ["short link", visit(`/${shortId}`), 301],
      ["short-link miss", visit("/999999"), 404],
      [
        "cross-site refusal",
        visit("/autenction", { method: "POST", headers: { origin: "https://evil.example" }, body: "intent=signin" }),
        403,
      ],
    ];
    for (const [name, pending, status] of responses) {
      const response = await pending;
      expect(response.status, name).toBe(status);
      expectSecurityHeaders(response, name);
      await response.body?.cancel();
    }
    const stream = await visit("/api/breaking/stream");
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    expectSecurityHeaders(stream, "event stream");
    await stream.body?.cancel();
  });
});

describe("error pages", () => {
  const titleOf = async (response: Response) => /<title>([^<]*)<\/title>/.exec(await response.text())?.[1];

  it("have an Arabic title: 404, the short-link miss and 403", async () => {
    expect(await titleOf(await visit("/no-such-page"))).toBe(
      `${messages.pageNotFound} | ${settingsMessages.neutralSiteName}`,
    );
    expect(await titleOf(await visit("/999999"))).toBe(
      `${messages.shortLinkNotFound} | ${settingsMessages.neutralSiteName}`,
    );
    expect(await titleOf(await visit("/dashboard", { headers: { cookie: reader } }))).toBe(
      `${messages.forbidden} | ${settingsMessages.neutralSiteName}`,
    );
  });

  it("have an Arabic title and the headers on a 500", async () => {
    // A real failure: the table the short-link page reads is gone for a moment.
    await sql`alter table short_links rename to short_links_away`.execute(db);
    try {
      const response = await visit(`/${shortId}`);
      expect(response.status).toBe(500);
      expectSecurityHeaders(response, "500");
      expect(await titleOf(response)).toBe(`${messages.serverError} | ${settingsMessages.neutralSiteName}`);
    } finally {
      await sql`alter table short_links_away rename to short_links`.execute(db);
    }
  });
});

describe("behind https", () => {
  it("adds Strict-Transport-Security and upgrades insecure requests only when BASE_URL is https", async () => {
    // Behind a proxy that terminates TLS, as such a site is.
    const https = await startTestServer({ BASE_URL: "https://news.example.org", TRUST_PROXY: "loopback" });
    try {
      const response = await fetch(`${https.url}/who`);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("upgrade-insecure-requests");
      expect(policy).not.toMatch(/\bhttp:/);
    } finally {
      await https.stop();
    }
  });
});
