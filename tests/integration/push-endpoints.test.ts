import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";

/*
 * A subscription's endpoint is a URL any reader may send, and the server sends to it: a site as it runs
 * for real (no TEST_LOOPBACK_PUSH) takes and sends to push services on the internet only, never to this
 * machine or its network, even for a subscription stored before that rule.
 */

let server: TestServer;
let db: DB;
let push: PushService;

beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({ SCHEDULER_INTERVAL_MS: "200" });
  db = openDatabase(server.env.DATABASE_URL);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await push?.stop();
});

const subscribe = (subscription: Subscription) =>
  fetch(`${server.url}/api/push/subscriptions`, {
    method: "POST",
    body: JSON.stringify({ subscription, categories: [] }),
    headers: { "content-type": "application/json", origin: server.url },
  });

describe("push endpoints on a real site", () => {
  it("refuses one on this machine or its network with a 400 in Arabic, and stores nothing", async () => {
    const reader = push.subscribe();
    const { port, pathname } = new URL(reader.endpoint);
    const endpoints = [
      reader.endpoint,
      `https://127.0.0.1:${port}${pathname}`,
      `https://localhost:${port}${pathname}`,
      "https://[::1]/push/x",
      "https://192.168.1.20/push/x",
      "https://169.254.169.254/latest/meta-data",
    ];
    // IPv6 addresses that carry a loopback or private IPv4 one: compatible, translated, 6to4, NAT64.
    endpoints.push(
      "https://[::127.0.0.1]/push/x",
      "https://[::ffff:0:7f00:1]/push/x",
      "https://[2002:7f00:1::1]/push/x",
      "https://[64:ff9b::10.0.0.1]/push/x",
    );
    for (const endpoint of endpoints) {
      const response = await subscribe({ ...reader, endpoint });
      expect(response.status, endpoint).toBe(400);
      expect(await response.json(), endpoint).toEqual({
        error: { code: "validation", message: pm.subscriptionInvalid },
      });
    }
    expect(await db.selectFrom("push_subscriptions").select("endpoint").execute()).toEqual([]);
    for (const endpoint of ["https://fcm.googleapis.com/fcm/send/reader-1", "https://[64:ff9b::8.8.8.8]/push/reader-2"])
      expect((await subscribe({ ...reader, endpoint })).status, endpoint).toBe(201);
    await db.deleteFrom("push_subscriptions").execute();
  });

  it(
    "sends nothing to one stored before the rule, and removes it: counted removed, the service never asked",
    { timeout: 60_000 },
    async () => {
      const readers = [push.subscribe(), push.subscribe()];
      const byName = `https://localhost:${new URL(readers[1]!.endpoint).port}${new URL(readers[1]!.endpoint).pathname}`;
      const stored = [readers[0]!.endpoint, byName];
      await db
        .insertInto("push_subscriptions")
        .values(
          stored.map((endpoint, i) => ({
            endpoint,
            p256dh: readers[i]!.keys.p256dh,
            auth: readers[i]!.keys.auth,
            categories: "[]",
            created_at: new Date().toISOString(),
          })),
        )
        .execute();
      const editor = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "مكتب التحرير",
        role: "editor",
      });
      const published = await fetch(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("عاجل: حريق في سوق الخضار", { category: "breaking", confirmAlert: "on" }),
        headers: { cookie: editor, origin: server.url },
      });
      expect(published.status, await published.clone().text()).toBe(201);
      const { id } = (await published.json()) as { id: string };

      await vi.waitFor(
        async () => expect(await db.selectFrom("push_subscriptions").select("endpoint").execute()).toEqual([]),
        { timeout: 15_000, interval: 50 },
      );
      const alert = await db
        .selectFrom("push_alerts")
        .selectAll()
        .where("article_id", "=", id)
        .executeTakeFirstOrThrow();
      expect([alert.sent, alert.delivered, alert.removed, alert.failed].map(Number)).toEqual([2, 0, 2, 0]);
      expect(readers.map((reader) => push.requests(reader.endpoint))).toEqual([0, 0]);
      expect(server.output()).toContain("is not a push service on the internet: removed, nothing sent");
    },
  );
});
