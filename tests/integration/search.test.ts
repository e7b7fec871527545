/** /search on the real production server: what readers and admins get, and that no query breaks it. */
import { CACHE } from "~/server/platform/cache-control.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryLabel } from "~/lib/categories";
import { messages } from "~/lib/messages";
import type { DB } from "~/server/db/db.server";
import { get, VISITOR, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin: Session;

const search = (query: string, session: Session = VISITOR, extra = "") =>
  get(`${server.url}/search?query=${encodeURIComponent(query)}${extra}`, session);

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await sessionAs(db, server, { email: "admin@example.com", username: "محرر", role: "admin" });
  await createTestArticle(db, {
    title: "افتتاح المدرسة الجديدة في القبة",
    content: "افتتح وزير التربية المدرسة اليوم.",
    category: "educational",
  });
  await createTestArticle(db, {
    title: '<script>alert("x")</script> خبر عن المرفأ',
    content: "<img src=x onerror=alert(1)> في المرفأ",
    category: "local",
  });
  await createTestArticle(db, { title: "خطة المهرجان الصيفي", content: "نص", category: "local", status: "draft" });
  for (let i = 0; i < 12; i++)
    await createTestArticle(db, { title: `معرض الكتاب ${i}`, content: "نص", category: "miscellaneous" });
});
afterAll(() => stopServerAndDb({ server, db }));

describe("/search", () => {
  it("shows matches with the words marked, category and date; cacheable for visitors, never for admins", async () => {
    const response = await search("مدرس");
    expect(response.status).toBe(200);
    // Every visitor gets the same results (article writes empty the page cache); a signed-in page is never stored.
    expect(response.headers.get("cache-control")).toBe(CACHE.publicPage);
    const asAdmin = await fetch(`${server.url}/search?query=${encodeURIComponent("مدرس")}`, {
      headers: { cookie: admin.cookie },
    });
    expect(asAdmin.headers.get("cache-control")).toBe(CACHE.personal);
    const html = await response.text();
    expect(html).toContain("<mark");
    expect(html).toMatch(/<mark[^>]*>المدرسة<\/mark>/);
    expect(html).toContain(categoryLabel("educational"));
    expect(html).toMatch(/<meta name="robots" content="noindex/);
  });

  it("escapes whatever an article contains", async () => {
    const html = await (await search("المرفأ")).text();
    expect(html).toContain("&lt;script&gt;alert");
    expect(html).not.toContain('<script>alert("x")');
    expect(html).not.toContain("<img src=x");
  });

  it("says 'لا توجد نتائج.' when nothing matches, and nothing at all for a blank query", async () => {
    expect(await (await search("زلزال")).text()).toContain(messages.noResults);
    const blank = await (await search("  ")).text();
    expect(blank).not.toContain(messages.noResults);
    expect(blank).not.toContain('data-testid="search-results"');
  });

  it("answers 200 to hostile queries and page numbers", async () => {
    for (const query of [
      '"',
      "*",
      "NEAR(",
      ")",
      "(",
      "-x",
      "{title}:a",
      "x".repeat(5000),
      "\u064e\u0651",
      "😀",
      "' OR 1=1 --",
      "%00",
    ]) {
      const response = await search(query);
      expect(response.status, JSON.stringify(query.slice(0, 10))).toBe(200);
    }
    for (const page of ["abc", "-1", "0", "99999999999", "1e3"]) {
      expect((await search("معرض", VISITOR, `&page=${page}`)).status).toBe(200);
    }
  });

  it("pages with plain links", async () => {
    const first = await (await search("معرض")).text();
    expect(first).toContain(`href="/search?query=${encodeURIComponent("معرض")}&amp;page=2"`);
    const second = await (await search("معرض", VISITOR, "&page=2")).text();
    expect(second.match(/data-testid="search-snippet"/g)).toHaveLength(2);
    expect(second).toContain(messages.previousPage);
  });

  it("finds no draft, for admins either: they see the public page as readers do (decision 031)", async () => {
    expect(await (await search("المهرجان")).text()).toContain(messages.noResults);
    const html = await (await search("المهرجان", admin)).text();
    expect(html.replace(/<[^>]+>/g, "")).not.toContain("خطة المهرجان الصيفي");
    expect(html).toContain(messages.noResults);
  });
});
