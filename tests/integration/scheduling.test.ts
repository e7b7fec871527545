import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BreakingEvent } from "~/lib/breaking";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { canonicalPath, createTestArticle, publishForm } from "../../harness/articles";
import { newSiteClock } from "../support/site-clock";
import { connectSse } from "../support/sse";
import { startTestServer, type TestServer, type TestSite } from "../../harness/test-server";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * Scheduled articles on two server processes sharing one database (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgres): each goes out on its own, exactly once, whichever process claims it, and
 * both processes' cached pages and streams hear of it. The test moves the site's clock (both processes
 * read the same one) to each article's time instead of waiting for it.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let cookie = "";
const clock = newSiteClock();

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({
    PAGE_CACHE_SECONDS: "300",
    SCHEDULER_INTERVAL_MS: "200",
    ...clock.env,
  }));
  cookie = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" });
}, 120_000);
afterAll(async () => {
  await stopServerAndDb({ site, db });
  clock.remove();
});

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const within15s = { timeout: 15_000, interval: 50 };

async function schedule(
  server: TestServer,
  title: string,
  publishAt: string,
): Promise<{ id: string; shortId: string | null }> {
  const body = publishForm(title, { category: "breaking", status: "scheduled", publishAt });
  const response = await fetch(`${server.url}/api/news`, {
    method: "POST",
    body,
    headers: { cookie, origin: server.url },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; shortId: string | null };
}

const publishedEvents = async (id: string) =>
  db.selectFrom("events").select("kind").where("article_id", "=", id).where("kind", "=", "article-published").execute();
const shortLinks = async (id: string) =>
  db.selectFrom("short_links").select("short_id").where("news_id", "=", id).execute();
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

    const at = new Date(clock.now() + 3_600_000).toISOString();
    const scheduled = [];
    for (let i = 0; i < 4; i++)
      scheduled.push({
        title: `عاجل مجدول ${i}`,
        publishAt: at,
        ...(await schedule(i % 2 ? b : a, `عاجل مجدول ${i}`, at)),
      });
    for (const article of scheduled) {
      expect(article.shortId).toBeNull();
      expect((await fetch(`${a.url}/news/${article.id}`)).status).toBe(404);
    }

    const created = () => reader.messages.map((m) => m.data as BreakingEvent).filter((e) => e.type === "created");
    clock.moveTo(Date.parse(at));
    await vi.waitFor(() => expect(created()).toHaveLength(4), within15s);
    // A later one goes out too: by then both schedulers have run rounds past the first four's time.
    const laterAt = new Date(clock.now() + 60_000).toISOString();
    const later = { publishAt: laterAt, ...(await schedule(a, "عاجل مجدول لاحقاً", laterAt)) };
    expect((await fetch(`${a.url}/news/${later.id}`)).status).toBe(404);
    clock.moveTo(Date.parse(laterAt));
    await vi.waitFor(() => expect(created()).toHaveLength(5), within15s);
    reader.close();

    for (const article of [...scheduled, later]) {
      expect(await publishedEvents(article.id)).toHaveLength(1);
      const [link, ...others] = await shortLinks(article.id);
      expect(others).toEqual([]);
      expect((await fetch(`${b.url}/${link!.short_id}`, { redirect: "manual" })).headers.get("location")).toBe(
        await canonicalPath(db, article.id),
      );
      const row = await db
        .selectFrom("news")
        .select(["status", "published_at", "publish_at"])
        .where("id", "=", article.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: "published", publish_at: null });
      expect(Date.parse(row.published_at!)).toBeGreaterThanOrEqual(Date.parse(article.publishAt));
    }
    const home = await homeOf(b);
    for (const { title } of scheduled) expect(home.html).toContain(title);
    const breaking = await (await fetch(`${a.url}/breaking`)).text();
    expect(breaking).toContain("عاجل مجدول لاحقاً");
  });

  it("refuses a scheduled article without a publish time in the future, in Arabic beside the field, storing nothing", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, newsroomMessages.publishAtRequired],
      [{ publishAt: "غداً صباحاً" }, newsroomMessages.publishAtInvalid],
      [{ publishAt: inSeconds(-60) }, newsroomMessages.publishAtPast],
    ];
    for (const [fields, message] of cases) {
      const title = `مجدول مرفوض ${message}`;
      const body = publishForm(title, { status: "scheduled", ...fields });
      const response = await fetch(`${a.url}/api/news`, { method: "POST", body, headers: { cookie, origin: a.url } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({
        publishAt: message,
      });
      expect(await db.selectFrom("news").select("id").where("title", "=", title).execute()).toEqual([]);
    }
  });

  it("a server that was down when an article was due publishes it as it starts, before it serves", async () => {
    await a.stop();
    await b.stop();
    const missed = await createTestArticle(db, {
      title: "فات موعده والخوادم متوقفة",
      category: "breaking",
      status: "scheduled",
      publishAt: inSeconds(-60),
    });
    // Its rounds 10 s apart: only the claim at start-up can have published the article by its first page.
    const restarted = await startTestServer({
      DATABASE_URL: site.database.url,
      MEDIA_DIR: b.env.MEDIA_DIR,
      SCHEDULER_INTERVAL_MS: "10000",
    });
    try {
      const page = await fetch(`${restarted.url}/news/${missed.id}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("فات موعده والخوادم متوقفة");
      expect(await shortLinks(missed.id)).toHaveLength(1);
    } finally {
      await restarted.stop();
    }
  });
});
