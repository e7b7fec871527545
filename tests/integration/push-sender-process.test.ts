import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { SCHED_IDLE, SCHED_OTHER, schedulingPolicies } from "../../harness/processes";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";

/*
 * The sender process (decision 043): in a cluster, Web Push alerts go out from one process of their
 * own in SCHED_IDLE, never from the workers that serve pages; one that dies is replaced and the next
 * alert still goes out, each subscription once.
 */

let server: TestServer;
let db: DB;
let push: PushService;
let editor: string;

beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({
    WORKERS: "2",
    LOG_LEVEL: "info",
    SCHEDULER_INTERVAL_MS: "200",
    TEST_LOOPBACK_PUSH: "1",
  });
  db = openDatabase(server.env.DATABASE_URL);
  editor = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await push?.stop();
});

async function subscribed(count: number): Promise<Subscription[]> {
  const subscriptions = Array.from({ length: count }, () => push.subscribe());
  for (const subscription of subscriptions) {
    const response = await fetch(`${server.url}/api/push/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ subscription, categories: [] }),
      headers: { "content-type": "application/json", origin: server.url },
    });
    expect(response.status).toBe(201);
  }
  return subscriptions;
}

async function publishBreaking(title: string): Promise<void> {
  const response = await fetch(`${server.url}/api/news`, {
    method: "POST",
    body: publishForm(title, { category: "breaking", confirmAlert: "on" }),
    headers: { cookie: editor, origin: server.url },
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** The deliveries the alerts have recorded as delivered. */
async function deliveredCount(): Promise<number> {
  const { delivered } = await db
    .selectFrom("push_alerts")
    .select((eb) => eb.fn.sum<number>("delivered").as("delivered"))
    .executeTakeFirstOrThrow();
  return Number(delivered ?? 0);
}

/** The pids of the processes that logged a send they handled. */
const sendingPids = () =>
  [...server.output().matchAll(/"pid":(\d+),[^\n]*"msg":"push deliveries handled"/g)].map((match) => Number(match[1]));

describe("the sender process (WORKERS=2)", () => {
  it(
    "sends every alert in SCHED_IDLE while the workers send none; replaced when killed, the next alert still goes out once to each",
    { timeout: 300_000 },
    async () => {
      expect(server.output()).toMatch(/2 workers and the sender process are serving: \d+, \d+, \d+ \(primary \d+\)/);
      const first = server.senderPid()!;
      const workers = server.workerPids();
      expect(workers).toHaveLength(2);
      expect(workers).not.toContain(first);
      expect(schedulingPolicies(first)).toEqual([SCHED_IDLE]);
      for (const worker of workers) expect(schedulingPolicies(worker)).toEqual([SCHED_OTHER]);

      const readers = await subscribed(20);
      await publishBreaking("انقطاع الطريق الساحلي بسبب الأمطار");
      await vi.waitFor(
        () => expect(readers.map((reader) => push.messages(reader.endpoint).length)).toEqual(readers.map(() => 1)),
        { timeout: 60_000, interval: 50 },
      );
      await vi.waitFor(() => expect(sendingPids()).not.toEqual([]), { timeout: 30_000, interval: 50 });
      // Killed before it records a delivery the push service has, a sender sends it again (decision 037's window).
      await vi.waitFor(async () => expect(await deliveredCount()).toBe(readers.length), {
        timeout: 30_000,
        interval: 50,
      });
      expect(new Set(sendingPids())).toEqual(new Set([first]));

      process.kill(first, "SIGKILL");
      await vi.waitFor(() => expect(server.senderPid() ?? first, server.output()).not.toBe(first), {
        timeout: 60_000,
        interval: 50,
      });
      const second = server.senderPid()!;
      expect(server.output()).toContain(`worker ${first} died (SIGKILL); starting a replacement in 100 ms`);
      expect(server.workerPids().sort()).toEqual(workers.sort());
      expect(schedulingPolicies(second)).toEqual([SCHED_IDLE]);

      await publishBreaking("إعادة فتح الطريق الساحلي");
      await vi.waitFor(
        () => expect(readers.map((reader) => push.messages(reader.endpoint).length)).toEqual(readers.map(() => 2)),
        { timeout: 60_000, interval: 50 },
      );
      await vi.waitFor(() => expect(sendingPids()).toContain(second), { timeout: 30_000, interval: 50 });
      expect(new Set(sendingPids())).toEqual(new Set([first, second]));
      expect(push.rejected()).toEqual([]);

      process.kill(server.pid, "SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.output()).toMatch(new RegExp(`"pid":${second},.*"msg":"stopped"`));
    },
  );
});
