import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { PUSH_SUBSCRIPTIONS_MAX, PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR } from "~/lib/constants";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { onPostgres } from "../../harness/postgres";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { publishForm } from "../../harness/articles";
import { newSiteClock } from "../support/site-clock";

/*
 * A subscription is an address the server posts every alert to, made by anyone without a cookie
 * (decision 037): one address makes a bounded number an hour, the site keeps a bounded number in all,
 * and a subscription's keys must be ones a message can be encrypted to, on subscribing and at sending.
 */

let server: TestServer;
let db: DB;
let push: PushService;
const clock = newSiteClock();
const HOUR = 3_600_000;

beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({ SCHEDULER_INTERVAL_MS: "200", TEST_LOOPBACK_PUSH: "1", ...clock.env });
  db = openDatabase(server.env.DATABASE_URL);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await push?.stop();
  clock.remove();
});

const subscribe = (subscription: Subscription, categories: string[] = []) =>
  fetch(`${server.url}/api/push/subscriptions`, {
    method: "POST",
    body: JSON.stringify({ subscription, categories }),
    headers: { "content-type": "application/json", origin: server.url },
  });
const stored = async () =>
  (await db.selectFrom("push_subscriptions").select("endpoint").execute()).map((row) => row.endpoint).sort();
const refusal = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;
/** A fresh hour for this machine's address: the attempts of the tests before no longer count. */
const nextHour = () => clock.moveTo(clock.now() + HOUR + 1000);

const b64 = (bytes: Buffer) => bytes.toString("base64url");
/** 65 bytes that look like an uncompressed point (0x04 first) but lie on no curve. */
const OFF_CURVE = b64(Buffer.alloc(65, 4));

describe("a subscription's keys", () => {
  it("must be a P-256 point and a 16-byte secret: anything else is a 400 in Arabic, and nothing is stored", async () => {
    const reader = push.subscribe();
    const point = Buffer.from(reader.keys.p256dh, "base64url");
    const badKeys = {
      "off the curve": { p256dh: OFF_CURVE, auth: reader.keys.auth },
      "all zero": { p256dh: b64(Buffer.concat([Buffer.from([4]), Buffer.alloc(64)])), auth: reader.keys.auth },
      "a point with one coordinate changed": {
        p256dh: b64(Buffer.concat([point.subarray(0, 64), Buffer.from([point[64]! ^ 1])])),
        auth: reader.keys.auth,
      },
      compressed: { p256dh: b64(Buffer.concat([Buffer.from([2]), point.subarray(1, 33)])), auth: reader.keys.auth },
      "auth of 15 bytes": { p256dh: reader.keys.p256dh, auth: b64(Buffer.alloc(15, 7)) },
      "auth of 17 bytes": { p256dh: reader.keys.p256dh, auth: b64(Buffer.alloc(17, 7)) },
    };
    for (const [name, keys] of Object.entries(badKeys)) {
      const response = await subscribe({ ...reader, keys });
      expect(response.status, name).toBe(400);
      expect(await refusal(response), name).toEqual({ code: "validation", message: pm.keysInvalid });
    }
    expect(await stored()).toEqual([]);
    expect((await subscribe(reader)).status).toBe(201);
    await db.deleteFrom("push_subscriptions").execute();
  });

  it(
    "that cannot be encrypted to at sending (stored before the check) remove the subscription: counted removed, nothing sent, never retried",
    { timeout: 30_000 },
    async () => {
      const [broken, reader] = [push.subscribe(), push.subscribe()];
      await db
        .insertInto("push_subscriptions")
        .values({
          endpoint: broken.endpoint,
          p256dh: OFF_CURVE,
          auth: broken.keys.auth,
          categories: "[]",
          created_at: new Date(clock.now()).toISOString(),
        })
        .execute();
      expect((await subscribe(reader)).status).toBe(201);
      const editor = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "مكتب التحرير",
        role: "editor",
      });
      const published = await fetch(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("عاجل: انهيار جسر في البداوي", { category: "breaking" }),
        headers: { cookie: editor, origin: server.url },
      });
      expect(published.status, await published.clone().text()).toBe(201);
      const { id } = (await published.json()) as { id: string };

      await vi.waitFor(async () => expect(await stored()).toEqual([reader.endpoint]), {
        timeout: 15_000,
        interval: 50,
      });
      await vi.waitFor(
        async () => {
          const alert = await db
            .selectFrom("push_alerts")
            .selectAll()
            .where("article_id", "=", id)
            .executeTakeFirstOrThrow();
          expect([alert.sent, alert.delivered, alert.removed, alert.failed].map(Number)).toEqual([2, 1, 1, 0]);
        },
        { timeout: 5_000, interval: 50 },
      );
      expect(await db.selectFrom("push_deliveries").select("id").execute()).toEqual([]);
      expect([push.requests(broken.endpoint), push.requests(reader.endpoint)]).toEqual([0, 1]);
      expect(server.output()).toContain("keys cannot be encrypted to: removed, nothing sent");
      await db.deleteFrom("push_subscriptions").execute();
    },
  );
});

describe("how many subscriptions", () => {
  it(
    `one address makes ${PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR} an hour; past it a 429 with Retry-After in Arabic, nothing stored; an hour later, more`,
    { timeout: 30_000 },
    async () => {
      nextHour();
      const readers = Array.from({ length: PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR + 1 }, () => push.subscribe());
      for (const reader of readers.slice(0, -1)) expect((await subscribe(reader)).status).toBe(201);
      const refused = await subscribe(readers.at(-1)!);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await refusal(refused)).toEqual({ code: "rate-limited", message: pm.subscribeTooMany });
      expect(await stored()).toHaveLength(PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR);
      expect(await stored()).not.toContain(readers.at(-1)!.endpoint);

      clock.moveTo(clock.now() + retryAfter * 1000);
      expect((await subscribe(readers.at(-1)!)).status).toBe(201);
      await db.deleteFrom("push_subscriptions").execute();
    },
  );

  it(
    `the site keeps ${PUSH_SUBSCRIPTIONS_MAX.toLocaleString("en")}: a new one past that is a 503 with Retry-After in Arabic; one already kept still changes its categories`,
    { timeout: 60_000 },
    async () => {
      nextHour();
      const kept = push.subscribe();
      expect((await subscribe(kept, ["local"])).status).toBe(201);
      const at = onPostgres
        ? sql`cast(${new Date(clock.now()).toISOString()} as timestamptz)`
        : sql`${new Date(clock.now()).toISOString()}`;
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${PUSH_SUBSCRIPTIONS_MAX - 1})
      insert into push_subscriptions (endpoint, p256dh, auth, categories, created_at)
      select 'https://push.example/filler-' || i, ${kept.keys.p256dh}, ${kept.keys.auth}, '[]', ${at} from n`.execute(
        db,
      );
      const count = async () =>
        Number(
          (
            await db
              .selectFrom("push_subscriptions")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count()).toBe(PUSH_SUBSCRIPTIONS_MAX);

      const newcomer = push.subscribe();
      const refused = await subscribe(newcomer);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refusal(refused)).toEqual({ code: "unavailable", message: pm.subscriptionsFull });
      expect(await count()).toBe(PUSH_SUBSCRIPTIONS_MAX);

      expect((await subscribe(kept, ["sports"])).status).toBe(201);
      expect(
        (
          await db
            .selectFrom("push_subscriptions")
            .select("categories")
            .where("endpoint", "=", kept.endpoint)
            .executeTakeFirstOrThrow()
        ).categories,
      ).toBe('["sports"]');

      const gone = await fetch(`${server.url}/api/push/subscriptions`, {
        method: "DELETE",
        body: JSON.stringify({ endpoint: kept.endpoint }),
        headers: { "content-type": "application/json", origin: server.url },
      });
      expect(gone.status).toBe(204);
      expect((await subscribe(newcomer)).status).toBe(201);
      expect(await count()).toBe(PUSH_SUBSCRIPTIONS_MAX);
      await db.deleteFrom("push_subscriptions").execute();
    },
  );
});
