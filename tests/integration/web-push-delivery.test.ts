import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { startPushService, type PushedMessage, type PushService, type Subscription } from "../../harness/push-service";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";
import { newSiteClock } from "../support/site-clock";

/*
 * Web Push delivery at volume (decision 037) on the engine under test, delivering to
 * harness/push-service.ts (every message's VAPID JWT checked and payload decrypted): an alert's counts
 * after every kind of answer, written in batches; and a send whose process is killed (SIGKILL) with
 * answers it never read, finished by another instance without losing a subscription.
 */

/** Requests in flight per process (site/background's PUSH_SENDING): the most a killed process may leave to be sent again. */
const UNSETTLED_AT_MOST = 64;
const SUBSCRIPTIONS = 3_000;

let site: TestSite;
let a: TestServer;
let db: DB;
let push: PushService;
let editor: string;
const clock = newSiteClock();

beforeAll(async () => {
  push = await startPushService();
  site = await startTestSite(1, { SCHEDULER_INTERVAL_MS: "200", TEST_LOOPBACK_PUSH: "1", ...clock.env });
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

async function publishedOn(server: TestServer, title: string, fields: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/api/news`, {
    method: "POST",
    body: publishForm(title, { confirmAlert: "on", ...fields }),
    headers: { cookie: editor, origin: server.url },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const alertOf = (articleId: string) =>
  db.selectFrom("push_alerts").selectAll().where("article_id", "=", articleId).executeTakeFirstOrThrow();
const countsOf = async (articleId: string) => {
  const alert = await alertOf(articleId);
  return {
    sent: Number(alert.sent),
    delivered: Number(alert.delivered),
    failed: Number(alert.failed),
    removed: Number(alert.removed),
  };
};
const waiting = async (articleId: string) =>
  db
    .selectFrom("push_deliveries")
    .select(["endpoint", "attempts"])
    .where("alert_id", "=", Number((await alertOf(articleId)).id))
    .execute();

describe("an alert's counts", () => {
  it(
    "counts every answer once: 201 delivered, 404 and 410 removed, 429 then 201 delivered, 500 five times and 400 failed",
    { timeout: 60_000 },
    async () => {
      const groups = { ok: 12, notFound: 4, gone: 5, tooMany: 6, serverError: 3, badRequest: 2 };
      const readers = Object.fromEntries(
        Object.entries(groups).map(([name, n]) => [name, Array.from({ length: n }, () => push.subscribe())]),
      ) as Record<keyof typeof groups, Subscription[]>;
      for (const subscription of Object.values(readers).flat()) {
        const response = await fetch(`${a.url}/api/push/subscriptions`, {
          method: "POST",
          body: JSON.stringify({ subscription, categories: ["sports"] }),
          headers: { "content-type": "application/json", origin: a.url },
        });
        expect(response.status).toBe(201);
      }
      for (const { endpoint } of readers.notFound) push.answer(endpoint, { status: 404, times: 1 });
      for (const { endpoint } of readers.gone) push.answer(endpoint, { status: 410, times: 1 });
      for (const { endpoint } of readers.tooMany) push.answer(endpoint, { status: 429, retryAfter: "30", times: 1 });
      for (const { endpoint } of readers.serverError) push.answer(endpoint, { status: 500, times: 5 });
      for (const { endpoint } of readers.badRequest) push.answer(endpoint, { status: 400, times: 1 });

      const id = await publishedOn(a, "فوز الفريق المحلي بالكأس", { category: "sports", sendAlert: "on" });
      const everyone = Object.values(readers).flat();
      await vi.waitFor(
        () => expect(everyone.map((reader) => push.requests(reader.endpoint) > 0)).not.toContain(false),
        { timeout: 10_000, interval: 50 },
      );
      // The 500s are retried four times, at 10, 20, 40 and 80 s of the site's clock; the 429s once, after Retry-After's 30 s.
      const attemptsOf = async (subscriptions: Subscription[]) => {
        const rows = await waiting(id);
        return subscriptions.map((subscription) =>
          Number(rows.find((row) => row.endpoint === subscription.endpoint)?.attempts),
        );
      };
      for (let attempt = 1; attempt <= 4; attempt++) {
        await vi.waitFor(
          async () => expect(await attemptsOf(readers.serverError)).toEqual(readers.serverError.map(() => attempt)),
          { timeout: 10_000, interval: 50 },
        );
        clock.moveTo(clock.now() + 90_000);
        await vi.waitFor(
          () =>
            expect(readers.serverError.map((reader) => push.requests(reader.endpoint))).toEqual(
              readers.serverError.map(() => attempt + 1),
            ),
          { timeout: 10_000, interval: 50 },
        );
      }
      await vi.waitFor(async () => expect(await waiting(id)).toEqual([]), { timeout: 10_000, interval: 50 });

      expect(await countsOf(id)).toEqual({ sent: 32, delivered: 12 + 6, removed: 4 + 5, failed: 3 + 2 });
      for (const reader of [...readers.ok, ...readers.tooMany]) expect(push.messages(reader.endpoint)).toHaveLength(1);
      const kept = await db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("categories", "like", '%"sports"%')
        .execute();
      expect(kept.map((row) => row.endpoint).sort()).toEqual(
        [...readers.ok, ...readers.tooMany, ...readers.serverError, ...readers.badRequest]
          .map((reader) => reader.endpoint)
          .sort(),
      );
      expect(push.rejected()).toEqual([]);
    },
  );
});

describe("a restart in the middle of a send", () => {
  it(
    "loses no subscription when its process is killed, and sends again only what it left uncommitted, with the same Topic and tag",
    { timeout: 120_000 },
    async () => {
      const earlier = (await db.selectFrom("push_subscriptions").select("endpoint").execute()).length;
      const created = new Date(clock.now()).toISOString();
      for (let start = 0; start < SUBSCRIPTIONS; start += 500) {
        const rows = Array.from({ length: 500 }, (_, i) => push.benchSubscription(start + i)).map(
          ({ endpoint, keys }) => ({ endpoint, ...keys, categories: "[]", created_at: created }),
        );
        await db.insertInto("push_subscriptions").values(rows).execute();
      }
      const id = await publishedOn(a, "عاجل: انهيار جسر المدينة القديم", { category: "breaking" });
      const received = () =>
        push.all().filter((message) => (message.payload as { tag?: string } | null)?.tag === `news-${id}`);
      await vi.waitFor(() => expect(received().length).toBeGreaterThan(SUBSCRIPTIONS / 4), {
        timeout: 30_000,
        interval: 10,
      });
      // From here the push service takes messages but A never reads their 201: A is killed with them in flight.
      push.hold();
      await vi.waitFor(() => expect(push.held().length).toBeGreaterThan(0), { timeout: 10_000, interval: 5 });
      process.kill(a.pid, "SIGKILL");
      await a.exited;
      const unanswered = push.held().map((message) => message.id);
      push.release();
      const before = await countsOf(id);
      expect(before.delivered).toBeLessThan(earlier + SUBSCRIPTIONS);

      // A's claims lapse within its lease (10 s; the clock moved past it here); then another instance takes over.
      clock.moveTo(clock.now() + 61_000);
      await site.startAnother();
      await vi.waitFor(async () => expect(await waiting(id)).toEqual([]), { timeout: 60_000, interval: 100 });
      expect(await countsOf(id)).toEqual({
        sent: earlier + SUBSCRIPTIONS,
        delivered: earlier + SUBSCRIPTIONS,
        failed: 0,
        removed: 0,
      });

      const byReader = new Map<string, PushedMessage[]>();
      for (const message of received()) byReader.set(message.id, [...(byReader.get(message.id) ?? []), message]);
      expect(byReader.size).toBe(earlier + SUBSCRIPTIONS);
      const repeated = [...byReader].filter(([, messages]) => messages.length > 1);
      expect(repeated.map(([reader]) => reader)).toEqual(expect.arrayContaining(unanswered));
      expect(repeated.length).toBeLessThanOrEqual(UNSETTLED_AT_MOST);
      for (const [, messages] of repeated) {
        expect(messages).toHaveLength(2);
        expect(
          new Set(messages.map((message) => `${message.topic} ${(message.payload as { tag: string }).tag}`)),
        ).toEqual(new Set([`akhbar-breaking news-${id}`]));
        expect(messages[1]!.payload).toEqual(messages[0]!.payload);
      }
      expect(push.rejected()).toEqual([]);
    },
  );
});
