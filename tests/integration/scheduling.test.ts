import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BreakingEvent } from "~/lib/breaking";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../support/accounts";
import { createTestArticle, publishForm } from "../support/articles";
import { connectSse } from "../support/sse";
import { startTestSite, type TestServer, type TestSite } from "../support/test-server";

/*
 * Scheduled articles on two server processes sharing one database (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgres): each goes out on its own, exactly once, whichever process claims it, and
 * both processes' cached pages and streams hear of it.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let cookie = "";

beforeAll(async () => {
  site = await startTestSite(2, { PAGE_CACHE_SECONDS: "300", SCHEDULER_INTERVAL_MS: "200" });
  [a, b] = site.servers as [TestServer, TestServer];
  db = openDatabase(site.database.url);
  cookie = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await site?.stop();
});

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const within10s = { timeout: 10_000, interval: 50 };

async function schedule(server: TestServer, title: string, publishAt: string): Promise<{ id: string; shortId: string | null }> {
  const body = publishForm(title, { category: "breaking", status: "scheduled", publishAt });
  const response = await fetch(`${server.url}/api/news`, { method: "POST", body, headers: { cookie, origin: server.url } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; shortId: string | null };
}

const publishedEvents = async (id: string) =>
  db.selectFrom("events").select("kind").where("article_id", "=", id).where("kind", "=", "article-published").execute();
const shortLinks = async (id: string) => db.selectFrom("short_links").select("short_id").where("news_id", "=", id).execute();
const homeOf = async (server: TestServer) => {
  const response = await fetch(`${server.url}/`);
  return { cache: response.headers.get("x-cache"), html: await response.text() };
};

describe("scheduled articles on two instances", () => {
  it("go out on their own, each exactly once, into both instances' cached pages and streams", async () => {
    await homeOf(b);
    expect((await homeOf(b)).cache).toBe("HIT");
    const reader = await connectSse(`${b.url}/api/breaking/stream`);
    await reader.waitFor(1);

    const at = inSeconds(2);
    const scheduled = [];
    for (let i = 0; i < 4; i++) scheduled.push({ title: `عاجل مجدول ${i}`, ...(await schedule(i % 2 ? b : a, `عاجل مجدول ${i}`, at)) });
    for (const article of scheduled) {
      expect(article.shortId).toBeNull();
      expect((await fetch(`${a.url}/news/${article.id}`)).status).toBe(404);
    }

    const created = () => reader.messages.map((m) => m.data as BreakingEvent).filter((e) => e.type === "created");
    await vi.waitFor(() => expect(created()).toHaveLength(4), within10s);
    // A later one goes out too: by then both schedulers have run many rounds past the first four's time.
    const later = await schedule(a, "عاجل مجدول لاحقاً", inSeconds(1));
    await vi.waitFor(() => expect(created()).toHaveLength(5), within10s);
    reader.close();

    for (const article of [...scheduled, later]) {
      expect(await publishedEvents(article.id)).toHaveLength(1);
      const [link, ...others] = await shortLinks(article.id);
      expect(others).toEqual([]);
      expect((await fetch(`${b.url}/${link!.short_id}`, { redirect: "manual" })).headers.get("location")).toBe(`/news/${article.id}`);
      const row = await db.selectFrom("news").select(["status", "published_at", "publish_at"]).where("id", "=", article.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "published", publish_at: null });
      expect(Date.parse(row.published_at!)).toBeGreaterThanOrEqual(Date.parse(at) - (article === later ? 2_000 : 0));
    }
    const home = await homeOf(b);
    for (const { title } of scheduled) expect(home.html).toContain(title);
    const breaking = await (await fetch(`${a.url}/breaking`)).text();
    expect(breaking).toContain("عاجل مجدول لاحقاً");
  });

  it("a server that was down when an article was due publishes it as it starts, before it serves", async () => {
    await a.stop();
    await b.stop();
    const missed = await createTestArticle(db, { title: "فات موعده والخوادم متوقفة", category: "breaking", status: "scheduled", publishAt: inSeconds(-60) });
    const restarted = await site.startAnother();
    const page = await fetch(`${restarted.url}/news/${missed.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("فات موعده والخوادم متوقفة");
    expect(await shortLinks(missed.id)).toHaveLength(1);
  });
});
