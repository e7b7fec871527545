import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { isRunning } from "../../harness/processes";
import { startPushService, type PushedMessage, type PushService } from "../../harness/push-service";
import { createEmptyDatabase, type EmptyDatabase } from "../../harness/temp-db";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";

/*
 * A sender that stops or dies in the middle of a send (decisions 037, 043), on the engine under test.
 * Two instances of a site share a breaking alert to 5,000 subscriptions: A, a cluster whose sender
 * process sends, and B, one process that sends itself. A's sender process is stopped (SIGTERM, as
 * any deploy does) or killed (SIGKILL) mid-send. A stopping sender gives back what it has not sent;
 * a dead one's lease lapses within seconds. Every subscriber gets the alert: once after a stop, and
 * after a kill again only what the killed process had in flight (at most its requests in flight),
 * with the same Topic and tag. A stopped sender holds nothing once it has exited; a killed one's
 * claims are taken within 10 s. The figures (when what it held arrived, and the last of all) are
 * printed: on a machine whose cores are busy they measure the send's pace, not the stop.
 */

const SUBSCRIPTIONS = 5_000;
/** Requests in flight per process (site/background's PUSH_SENDING): the most a killed sender may leave to be sent again. */
const UNSETTLED_AT_MOST = 64;
const TAKEN_WITHIN_MS = 10_000;
/** What it held arrives well before the minute a claim used to hold, however slow the machine. */
const HELD_ARRIVED_WITHIN_MS = 30_000;
/** Long enough to see a send held up for a minute, as it was, rather than time out. */
const WAIT_FOR_ALL_MS = 120_000;

let database: EmptyDatabase;
let a: TestServer;
let b: TestServer;
let db: DB;
let push: PushService;
let editor: string;

beforeAll(async () => {
  push = await startPushService();
  database = await createEmptyDatabase();
  const site = { DATABASE_URL: database.url, MEDIA_DIR: path.join(database.dir, "media"), TEST_LOOPBACK_PUSH: "1" };
  a = await startTestServer({ ...site, WORKERS: "2", LOG_LEVEL: "info" });
  b = await startTestServer({ ...site, LOG_LEVEL: "info" });
  db = openDatabase(database.url);
  editor = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });
  const created = new Date().toISOString();
  for (let start = 0; start < SUBSCRIPTIONS; start += 500) {
    const rows = Array.from({ length: 500 }, (_, i) => push.benchSubscription(start + i)).map(({ endpoint, keys }) => ({
      endpoint,
      ...keys,
      categories: "[]",
      created_at: created,
    }));
    await db.insertInto("push_subscriptions").values(rows).execute();
  }
}, 180_000);
afterAll(async () => {
  await db?.destroy();
  await a?.stop();
  await b?.stop();
  await database?.drop();
  await push?.stop();
});

async function publishBreaking(title: string): Promise<string> {
  const response = await fetch(`${a.url}/api/news`, {
    method: "POST",
    body: publishForm(title, { category: "breaking", confirmAlert: "on" }),
    headers: { cookie: editor, origin: a.url },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Each subscriber's messages of the story's alert, by subscription. */
function byReader(id: string): Map<string, PushedMessage[]> {
  const readers = new Map<string, PushedMessage[]>();
  for (const message of push.all()) {
    if ((message.payload as { tag?: string } | null)?.tag !== `news-${id}`) continue;
    readers.set(message.id, [...(readers.get(message.id) ?? []), message]);
  }
  return readers;
}

/** The subscriptions (as the push service names them) whose deliveries the process `pid` holds claimed now. */
async function heldBy(pid: number): Promise<string[]> {
  const rows = await db
    .selectFrom("push_deliveries")
    .select("endpoint")
    .where("claimed_by", "like", `%/${pid}:%`)
    .execute();
  return rows.map((row) => row.endpoint.split("/").pop()!);
}

/** The subscriptions whose deliveries any sender holds claimed now. */
async function claimed(): Promise<string[]> {
  const rows = await db
    .selectFrom("push_deliveries")
    .select("endpoint")
    .where("claimed_until", "is not", null)
    .execute();
  return rows.map((row) => row.endpoint.split("/").pop()!);
}

/**
 * Publishes a breaking story, stops A's sender process with `signal` once a tenth of the send is
 * out, and waits for every subscriber's alert: returns them, what the senders held at the stop, and
 * the figures.
 */
async function sendStoppedBy(signal: "SIGTERM" | "SIGKILL", title: string) {
  const sender = a.senderPid()!;
  const id = await publishBreaking(title);
  await vi.waitFor(() => expect(byReader(id).size).toBeGreaterThan(SUBSCRIPTIONS / 10), {
    timeout: 60_000,
    interval: 5,
  });
  await vi.waitFor(async () => expect((await claimed()).length).toBeGreaterThan(0), { timeout: 60_000, interval: 5 });
  const claimedBefore = await claimed();
  process.kill(sender, signal);
  const stoppedAt = Date.now();
  const sentBefore = byReader(id).size;
  // What every sender held at the stop, the stopped one's among them.
  const held = [...new Set([...claimedBefore, ...(await claimed())])];
  // Stopped, it gives back what it did not send as it exits; killed, its claims are taken once its lease lapses.
  await vi.waitFor(() => expect(isRunning(sender)).toBe(false), { timeout: 60_000, interval: 20 });
  if (signal === "SIGTERM") expect(await heldBy(sender)).toEqual([]);
  else
    await vi.waitFor(async () => expect(await heldBy(sender)).toEqual([]), {
      timeout: Math.max(0, stoppedAt + TAKEN_WITHIN_MS - Date.now()),
      interval: 50,
    });
  await vi.waitFor(() => expect(byReader(id).size).toBe(SUBSCRIPTIONS), { timeout: WAIT_FOR_ALL_MS, interval: 50 });
  const readers = byReader(id);
  const firstOf = (reader: string) => readers.get(reader)![0]!.at;
  const firsts = [...readers.keys()].map(firstOf);
  const figures = {
    signal,
    sentBefore,
    held: held.length,
    heldLastMs: Math.max(...held.map(firstOf)) - stoppedAt,
    late: firsts.filter((at) => at > stoppedAt + 1_000).length,
    lastMs: Math.max(...firsts) - stoppedAt,
  };
  console.info(`${signal} of a sender mid-send: ${JSON.stringify(figures)}`);
  expect(sentBefore).toBeLessThan(SUBSCRIPTIONS);
  return { id, readers, figures: { ...figures, heldIds: held } };
}

const alertCounts = async (id: string) => {
  const alert = await db.selectFrom("push_alerts").selectAll().where("article_id", "=", id).executeTakeFirstOrThrow();
  const waiting = await db
    .selectFrom("push_deliveries")
    .select("id")
    .where("alert_id", "=", Number(alert.id))
    .execute();
  return {
    waiting: waiting.length,
    sent: Number(alert.sent),
    delivered: Number(alert.delivered),
    failed: Number(alert.failed),
    removed: Number(alert.removed),
  };
};
const everyoneDelivered = { waiting: 0, sent: SUBSCRIPTIONS, delivered: SUBSCRIPTIONS, failed: 0, removed: 0 };

describe("a sender process stopped in the middle of a send, beside another instance's sender", () => {
  it(
    "stopped (SIGTERM): gives back what it has not sent as it exits, sent by the others; each subscriber once",
    { timeout: 240_000 },
    async () => {
      const { id, readers, figures } = await sendStoppedBy("SIGTERM", "عاجل: إغلاق المعبر الحدودي حتى إشعار آخر");
      expect([...readers.values()].filter((messages) => messages.length > 1).map(([message]) => message!.id)).toEqual(
        [],
      );
      expect(figures.heldLastMs).toBeLessThan(HELD_ARRIVED_WITHIN_MS);
      await vi.waitFor(async () => expect(await alertCounts(id)).toEqual(everyoneDelivered), {
        timeout: 15_000,
        interval: 100,
      });
      expect(push.rejected()).toEqual([]);
    },
  );

  it(
    "killed (SIGKILL): its claims are taken within 10 s (on this machine at once); again only what it had in flight, with the same Topic and tag",
    { timeout: 240_000 },
    async () => {
      await vi.waitFor(() => expect(a.senderPid()).toBeDefined(), { timeout: 30_000, interval: 50 });
      const { id, readers, figures } = await sendStoppedBy("SIGKILL", "عاجل: انقطاع التيار الكهربائي عن المدينة");
      const repeated = [...readers.values()].filter((messages) => messages.length > 1);
      expect(repeated.length).toBeLessThanOrEqual(UNSETTLED_AT_MOST);
      expect(repeated.map(([message]) => message!.id).filter((reader) => !figures.heldIds.includes(reader))).toEqual(
        [],
      );
      for (const messages of repeated) {
        expect(messages).toHaveLength(2);
        expect(
          new Set(messages.map((message) => `${message.topic} ${(message.payload as { tag: string }).tag}`)),
        ).toEqual(new Set([`akhbar-breaking news-${id}`]));
      }
      expect(figures.heldLastMs).toBeLessThan(HELD_ARRIVED_WITHIN_MS);
      await vi.waitFor(async () => expect(await alertCounts(id)).toEqual(everyoneDelivered), {
        timeout: 15_000,
        interval: 100,
      });
      expect(push.rejected()).toEqual([]);
    },
  );
});
