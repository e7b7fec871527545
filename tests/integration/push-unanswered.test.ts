import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";
import { newSiteClock } from "../support/site-clock";

/*
 * A push service that takes a message and does not answer it (decision 037), on the engine under
 * test: it drops the connection after reading, or answers after the sender's 15 s timeout. The
 * service may have the message, so it is sent again once at most, with the same Topic, and counted
 * on its alert as repeated; unanswered twice, it is failed. And a slow service does not leave one
 * instance's sender holding the send while the other's sits idle.
 */

let site: TestSite;
let a: TestServer;
let db: DB;
let push: PushService;
let editor: string;
const clock = newSiteClock();

beforeAll(async () => {
  push = await startPushService();
  site = await startTestSite(2, { TEST_LOOPBACK_PUSH: "1", LOG_LEVEL: "info", ...clock.env });
  a = site.servers[0]!;
  db = openDatabase(site.database.url);
  editor = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });
}, 180_000);
afterAll(async () => {
  await db?.destroy();
  await site?.stop();
  await push?.stop();
  clock.remove();
});

/** `count` readers of `category`, stored as the subscribe endpoint stores them (it takes 60 an hour from one address). */
async function subscribed(count: number, category: string): Promise<Subscription[]> {
  const subscriptions = Array.from({ length: count }, () => push.subscribe());
  const created = new Date().toISOString();
  const rows = subscriptions.map(({ endpoint, keys }) => ({
    endpoint,
    ...keys,
    categories: JSON.stringify([category]),
    created_at: created,
  }));
  for (let start = 0; start < rows.length; start += 200)
    await db
      .insertInto("push_subscriptions")
      .values(rows.slice(start, start + 200))
      .execute();
  return subscriptions;
}

async function alertFor(title: string, category: string): Promise<string> {
  const response = await fetch(`${a.url}/api/news`, {
    method: "POST",
    body: publishForm(title, { category, sendAlert: "on", confirmAlert: "on" }),
    headers: { cookie: editor, origin: a.url },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const countsOf = async (articleId: string) => {
  const alert = await db
    .selectFrom("push_alerts")
    .selectAll()
    .where("article_id", "=", articleId)
    .executeTakeFirstOrThrow();
  const waiting = await db
    .selectFrom("push_deliveries")
    .select("id")
    .where("alert_id", "=", Number(alert.id))
    .execute();
  return {
    waiting: waiting.length,
    delivered: Number(alert.delivered),
    failed: Number(alert.failed),
    removed: Number(alert.removed),
    repeated: Number(alert.repeated),
  };
};
const requestsOf = (readers: Subscription[]) => readers.map((reader) => push.requests(reader.endpoint));
const messagesOf = (readers: Subscription[]) =>
  readers.map((reader) =>
    push.messages(reader.endpoint).map((message) => `${message.topic} ${(message.payload as { tag: string }).tag}`),
  );
const within = { timeout: 30_000, interval: 50 };

describe("a push service that takes a message and does not answer", () => {
  it(
    "drops the connection after reading: sent again once with the same Topic, counted as repeated, then failed; never a third time",
    { timeout: 120_000 },
    async () => {
      const readers = await subscribed(6, "sports");
      for (const reader of readers) push.answer(reader.endpoint, { drop: true, times: 10 });
      const id = await alertFor("تأجيل مباراة الديربي بسبب الأمطار", "sports");
      await vi.waitFor(() => expect(requestsOf(readers)).toEqual(readers.map(() => 1)), within);
      // The retry waits for the back-off (10 s) on the site's clock.
      clock.moveTo(clock.now() + 11_000);
      await vi.waitFor(() => expect(requestsOf(readers)).toEqual(readers.map(() => 2)), within);
      await vi.waitFor(
        async () =>
          expect(await countsOf(id)).toEqual({ waiting: 0, delivered: 0, failed: 6, removed: 0, repeated: 6 }),
        within,
      );
      // Later rounds of both senders find nothing more to send.
      clock.moveTo(clock.now() + 3_600_000);
      await vi.waitFor(
        async () => expect(await db.selectFrom("push_deliveries").select("id").execute()).toEqual([]),
        within,
      );
      expect(requestsOf(readers)).toEqual(readers.map(() => 2));
      expect(messagesOf(readers)).toEqual(readers.map(() => [`akhbar-sports news-${id}`, `akhbar-sports news-${id}`]));
      expect(push.rejected()).toEqual([]);
    },
  );

  it(
    "answers after the 15 s timeout: sent again once, which it answers, delivered and counted as repeated",
    { timeout: 120_000 },
    async () => {
      const readers = await subscribed(3, "international");
      for (const reader of readers) push.answer(reader.endpoint, { lateMs: 20_000, times: 1 });
      const id = await alertFor("ارتفاع سعر صرف الدولار في السوق", "international");
      await vi.waitFor(() => expect(requestsOf(readers)).toEqual(readers.map(() => 1)), within);
      await vi.waitFor(async () => expect(await countsOf(id)).toMatchObject({ repeated: 3 }), within);
      clock.moveTo(clock.now() + 11_000);
      await vi.waitFor(
        async () =>
          expect(await countsOf(id)).toEqual({ waiting: 0, delivered: 3, failed: 0, removed: 0, repeated: 3 }),
        within,
      );
      expect(messagesOf(readers)).toEqual(
        readers.map(() => [`akhbar-international news-${id}`, `akhbar-international news-${id}`]),
      );
      expect(push.rejected()).toEqual([]);
    },
  );
});

describe("a slow push service", () => {
  it(
    "leaves the send shared: each instance's sender handles a good part of it, each subscriber once",
    { timeout: 120_000 },
    async () => {
      const count = 400;
      const readers = await subscribed(count, "educational");
      for (const reader of readers) push.answer(reader.endpoint, { lateMs: 1_000, times: 1 });
      const logged = (field: string) => (server: TestServer) =>
        [...server.output().matchAll(new RegExp(`"${field}":(\\d+)`, "g"))].reduce(
          (sum, match) => sum + Number(match[1]),
          0,
        );
      const [handledBy, lostBy] = [logged("handled"), logged("lost")];
      // A request that never reached the service (a refused or reset connection on a loaded machine) is retried, not repeated.
      const unsentBy = (server: TestServer) => (server.output().match(/failed to reach its service/g) ?? []).length;
      const before = site.servers.map(handledBy);
      const lostBefore = site.servers.map(lostBy);
      const unsentBefore = site.servers.map(unsentBy);
      const id = await alertFor("افتتاح معرض الكتاب في طرابلس", "educational");
      await vi.waitFor(
        async () => expect(await countsOf(id)).toMatchObject({ waiting: 0, delivered: count, failed: 0, removed: 0 }),
        { timeout: 60_000, interval: 100 },
      );
      // Once each, but for a request the service took and a starved sender saw unanswered past its 15 s.
      const repeated = (await countsOf(id)).repeated;
      const sum = (counts: number[], since: number[]) => counts.reduce((total, n, i) => total + n - since[i]!, 0);
      const all = (counts: number[]) => counts.reduce((total, n) => total + n, 0);
      // Every outcome a sender logs as handled is on some alert of this file's site, or a retry of a request that never
      // went out; a round of an earlier test may log its own after this one began, so the sums are the whole file's.
      const recordedOnAlerts = async () =>
        (await db.selectFrom("push_alerts").select(["delivered", "failed", "removed", "repeated"]).execute()).reduce(
          (total, row) =>
            total + Number(row.delivered) + Number(row.failed) + Number(row.removed) + Number(row.repeated),
          0,
        );
      await vi.waitFor(
        async () =>
          expect(all(site.servers.map(handledBy))).toBe((await recordedOnAlerts()) + all(site.servers.map(unsentBy))),
        within,
      );
      const shares = site.servers.map((server, i) => handledBy(server) - before[i]!);
      // A sender that stalls past its lease with a request in flight sends what the other sender took: it says so.
      const lost = () => sum(site.servers.map(lostBy), lostBefore);
      await vi.waitFor(() => expect(messagesOf(readers).flat()).toHaveLength(count + repeated + lost()), within);
      console.info(
        `a slow push service (1 s an answer), ${count} subscribers: handled ${shares.join(" and ")}, ${repeated} repeated, ${lost()} sent by a stalled sender, ${sum(site.servers.map(unsentBy), unsentBefore)} retried unsent`,
      );
      for (const share of shares) expect(share).toBeGreaterThanOrEqual(count / 4);
    },
  );
});
