import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { IMAGE_WIDTHS } from "~/lib/images";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { NEUTRAL_SETTINGS } from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import { openToken } from "~/server/news/push-open-tokens.server";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";
import { signedInAs } from "../../harness/accounts";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import type { TestServer, TestSite } from "../../harness/test-server";
import { createTestArticle, publishForm, putArticle, storedVersion } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { holdArticleWrites } from "../support/held-writes";
import { get } from "../../harness/http-client";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";
import { newSiteClock } from "../support/site-clock";

/*
 * Web Push (decision 037) on two instances sharing one database (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgres), delivering to the push service of harness/push-service.ts, which checks
 * each request's VAPID JWT and decrypts its payload: subscribe through A, publish on B, exactly one
 * message per subscription; retries by the site's clock, moved instead of waited for.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let push: PushService;
let editor: string;
let author: string;
const clock = newSiteClock();

beforeAll(async () => {
  push = await startPushService();
  ({ site, a, b, db } = await startTwoInstancesAndDb({
    SCHEDULER_INTERVAL_MS: "200",
    TEST_LOOPBACK_PUSH: "1",
    ...clock.env,
  }));
  editor = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });
  author = await signedInAs(db, a.site, { email: "writer@example.com", username: "كاتب", role: "author" });
}, 180_000);
afterAll(async () => {
  await stopServerAndDb({ site, db });
  await push?.stop();
  clock.remove();
});

const within5s = { timeout: 5_000, interval: 50 };

function sendJson(
  server: TestServer,
  path: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${server.url}${path}`, {
    method,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", origin: server.url, ...headers },
  });
}

async function subscribeAt(server: TestServer, subscription: Subscription, categories: string[]): Promise<void> {
  const response = await sendJson(server, "/api/push/subscriptions", "POST", { subscription, categories });
  expect(response.status).toBe(201);
  expect(await response.json()).toEqual({});
}

/** Publishes through `server`'s API as `cookie`; `fields` over a local story. */
async function publishOn(server: TestServer, cookie: string, title: string, fields: Record<string, string> = {}) {
  return fetch(`${server.url}/api/news`, {
    method: "POST",
    body: publishForm(title, fields),
    headers: { cookie, origin: server.url },
  });
}

async function published(server: TestServer, title: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await publishOn(server, editor, title, fields);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function alertOf(articleId: string) {
  return db.selectFrom("push_alerts").selectAll().where("article_id", "=", articleId).executeTakeFirst();
}

/** Waits until the alert of `articleId` has every delivery counted, and none waits. */
async function settled(articleId: string) {
  await vi.waitFor(async () => {
    const alert = await alertOf(articleId);
    expect(alert?.payload).toBeTruthy();
    expect(Number(alert!.delivered) + Number(alert!.failed) + Number(alert!.removed)).toBe(Number(alert!.sent));
  }, within5s);
  const left = await db
    .selectFrom("push_deliveries")
    .select("id")
    .where("alert_id", "=", Number((await alertOf(articleId))!.id))
    .execute();
  expect(left).toEqual([]);
  return (await alertOf(articleId))!;
}

const payloadsOf = (subscription: Subscription) =>
  push.messages(subscription.endpoint).map((message) => message.payload as Record<string, unknown>);

describe("keys and subscriptions", () => {
  it("gives one VAPID key on every instance, a P-256 point", async () => {
    const [fromA, fromB] = await Promise.all(
      [a, b].map(
        async (server) =>
          ((await (await fetch(`${server.url}/api/push/key`)).json()) as { publicKey: string }).publicKey,
      ),
    );
    expect(fromA).toBe(fromB);
    const point = Buffer.from(fromA!, "base64url");
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    expect(await db.selectFrom("push_keys").select("id").execute()).toHaveLength(1);
  });

  it("stores a subscription, replaces its categories, deletes it on unsubscribe", async () => {
    const subscription = push.subscribe();
    await subscribeAt(a, subscription, ["local"]);
    await subscribeAt(b, subscription, ["sports", "local"]);
    const row = await db
      .selectFrom("push_subscriptions")
      .selectAll()
      .where("endpoint", "=", subscription.endpoint)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.categories)).toEqual(["sports", "local"]);
    expect(Object.keys(row).sort()).toEqual(["auth", "categories", "created_at", "endpoint", "p256dh"]);
    const gone = await sendJson(a, "/api/push/subscriptions", "DELETE", { endpoint: subscription.endpoint });
    expect(gone.status).toBe(204);
    expect(
      await db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("endpoint", "=", subscription.endpoint)
        .execute(),
    ).toEqual([]);
  });

  it("refuses bad input in Arabic with a 4xx and stores nothing", async () => {
    const before = await db.selectFrom("push_subscriptions").select("endpoint").execute();
    const good = push.subscribe();
    const cases: [string, unknown, string?][] = [
      ["not json", "{", undefined],
      ["text", "hello", "text/plain"],
      ["no keys", { subscription: { endpoint: good.endpoint }, categories: [] }],
      ["script endpoint", { subscription: { ...good, endpoint: "javascript:alert(1)" }, categories: [] }],
      // Only this machine is allowed for the tests' push service; its network and plain http elsewhere never are.
      ["private address", { subscription: { ...good, endpoint: "https://10.20.30.40/push/x" }, categories: [] }],
      [
        "cloud metadata",
        { subscription: { ...good, endpoint: "http://169.254.169.254/latest/meta-data" }, categories: [] },
      ],
      ["plain http", { subscription: { ...good, endpoint: "http://push.example/push/x" }, categories: [] }],
      ["bad key", { subscription: { ...good, keys: { p256dh: "<>", auth: good.keys.auth } }, categories: [] }],
      ["unknown category", { subscription: good, categories: ["nope"] }],
      ["categories not a list", { subscription: good, categories: "local" }],
      ["array", [good], undefined],
    ];
    for (const [name, body, type] of cases) {
      const response = await sendJson(a, "/api/push/subscriptions", "POST", body, type ? { "content-type": type } : {});
      expect(response.status, name).toBe(400);
      const answer = (await response.json()) as { error: { message: string } };
      expect(answer.error.message, name).toMatch(/[\u0600-\u06FF]/);
    }
    const crossSite = await sendJson(
      a,
      "/api/push/subscriptions",
      "POST",
      { subscription: good, categories: [] },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await db.selectFrom("push_subscriptions").select("endpoint").execute()).toEqual(before);
  });
});

describe("sending", () => {
  const readers: Record<"breakingOnly" | "local" | "sports", Subscription> = {} as never;

  beforeAll(async () => {
    readers.breakingOnly = push.subscribe();
    readers.local = push.subscribe();
    readers.sports = push.subscribe();
    await subscribeAt(a, readers.breakingOnly, []);
    await subscribeAt(a, readers.local, ["local"]);
    await subscribeAt(a, readers.sports, ["sports"]);
  });

  it("sends a breaking story published on B to every subscriber exactly once, decryptable, with its payload", async () => {
    const id = await published(b, "عاجل: انقطاع الكهرباء في المدينة", {
      category: "breaking",
      standfirst: "انقطاع شامل منذ الصباح",
    });
    const alert = await settled(id);
    expect(Number(alert.sent)).toBe(3);
    expect(Number(alert.delivered)).toBe(3);
    for (const reader of Object.values(readers)) {
      const messages = push.messages(reader.endpoint);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ urgency: "high", topic: "akhbar-breaking" });
      expect(Number(messages[0]!.ttl)).toBeGreaterThan(0);
      expect(messages[0]!.payload).toEqual({
        alertId: Number(alert.id),
        title: "عاجل: انقطاع الكهرباء في المدينة",
        body: "انقطاع شامل منذ الصباح",
        url: expect.stringMatching(new RegExp(`^/news/${id}(/|$)`)),
        image: null,
        icon: expect.stringMatching(/^http:\/\/.+\/icon-192\.png$/),
        tag: `news-${id}`,
        open: expect.stringMatching(/^\d+\.[A-Za-z0-9_-]{22}$/),
      });
    }
    // An edit after delivery, on the other instance, sends nothing again.
    const edit = await putArticle(
      a.url,
      { cookie: editor },
      id,
      publishForm("عاجل: عودة الكهرباء", { category: "breaking" }),
      { origin: a.url },
    );
    expect(edit.status).toBeLessThan(300);
    expect(await db.selectFrom("push_alerts").select("id").where("article_id", "=", id).execute()).toHaveLength(1);
    expect(await db.selectFrom("push_deliveries").select("id").execute()).toEqual([]);
    expect(push.rejected()).toEqual([]);
  });

  it("sends an editor's alert of a local story to its category's subscribers only, at normal urgency", async () => {
    const id = await published(a, "افتتاح مكتبة البلدية", { category: "local", sendAlert: "on" });
    const alert = await settled(id);
    expect(alert.kind).toBe("manual");
    expect(Number(alert.sent)).toBe(1);
    expect(payloadsOf(readers.local).at(-1)).toMatchObject({
      alertId: Number(alert.id),
      title: "افتتاح مكتبة البلدية",
    });
    expect(push.messages(readers.local.endpoint).at(-1)).toMatchObject({ urgency: "normal", topic: "akhbar-local" });
    expect(push.messages(readers.breakingOnly.endpoint)).toHaveLength(1);
    expect(push.messages(readers.sports.endpoint)).toHaveLength(1);
  });

  it("refuses the alert to an author, storing nothing", async () => {
    const response = await publishOn(a, author, "خبر كاتب مع تنبيه", { status: "review", sendAlert: "on" });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(pm.sendAlertEditorsOnly);
    expect(await db.selectFrom("news").select("id").where("title", "=", "خبر كاتب مع تنبيه").execute()).toEqual([]);
  });

  it("removes a subscription its push service says is gone (410), retries 429 and 500 when the clock reaches their time", async () => {
    push.answer(readers.sports.endpoint, { status: 410, times: 1 });
    push.answer(readers.breakingOnly.endpoint, { status: 429, retryAfter: "120", times: 1 });
    push.answer(readers.local.endpoint, { status: 503, times: 1 });
    const id = await published(b, "عاجل: إغلاق الطريق الساحلي", { category: "breaking", confirmAlert: "on" });
    await vi.waitFor(async () => expect(Number((await alertOf(id))?.removed)).toBe(1), within5s);
    expect(
      await db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("endpoint", "=", readers.sports.endpoint)
        .execute(),
    ).toEqual([]);
    await vi.waitFor(() => expect(push.requests(readers.breakingOnly.endpoint)).toBe(2), within5s);
    await vi.waitFor(() => expect(push.requests(readers.local.endpoint)).toBe(3), within5s);
    // The push service counts a request before the sender has recorded its answer.
    const waitingRows = () => db.selectFrom("push_deliveries").select(["endpoint", "attempts", "due_at"]).execute();
    await vi.waitFor(
      async () =>
        expect((await waitingRows()).map((row) => [row.endpoint, Number(row.attempts)]).sort()).toEqual(
          [
            [readers.breakingOnly.endpoint, 1],
            [readers.local.endpoint, 1],
          ].sort(),
        ),
      within5s,
    );
    const waiting = await waitingRows();
    const retryAt = Object.fromEntries(waiting.map((row) => [row.endpoint, Date.parse(row.due_at)]));
    expect(retryAt[readers.breakingOnly.endpoint]! - clock.now()).toBeGreaterThan(100_000);

    clock.moveTo(clock.now() + 30_000);
    await vi.waitFor(
      () => expect(payloadsOf(readers.local).at(-1)?.title).toBe("عاجل: إغلاق الطريق الساحلي"),
      within5s,
    );
    expect(push.requests(readers.breakingOnly.endpoint)).toBe(2);
    // Its answer recorded before the clock jumps past the sender's lease, as a sender that stalls that long would send it again.
    await vi.waitFor(
      async () => expect((await waitingRows()).map((row) => row.endpoint)).toEqual([readers.breakingOnly.endpoint]),
      within5s,
    );
    clock.moveTo(clock.now() + 100_000);
    const alert = await settled(id);
    expect(payloadsOf(readers.breakingOnly).at(-1)?.title).toBe("عاجل: إغلاق الطريق الساحلي");
    expect({
      sent: Number(alert.sent),
      delivered: Number(alert.delivered),
      removed: Number(alert.removed),
      failed: Number(alert.failed),
    }).toEqual({ sent: 3, delivered: 2, removed: 1, failed: 0 });
    for (const reader of [readers.breakingOnly, readers.local]) {
      expect(
        push
          .messages(reader.endpoint)
          .filter((message) => (message.payload as { alertId: number }).alertId === Number(alert.id)),
      ).toHaveLength(1);
    }
  });

  it("resumes a claim its process abandoned once the claim lapses, without a duplicate", async () => {
    const { id } = await createTestArticle(db, {
      title: "عاجل: خبر بقي إرساله معلقاً",
      category: "breaking",
      silent: true,
    });
    const payload = {
      alertId: 0,
      title: "عاجل: خبر بقي إرساله معلقاً",
      body: "",
      url: `/news/${id}`,
      image: null,
      icon: `${a.url}/icon-192.png`,
      tag: `news-${id}`,
    };
    const now = new Date(clock.now());
    const alert = await db
      .insertInto("push_alerts")
      .values({
        article_id: id,
        kind: "breaking",
        created_at: now.toISOString(),
        payload: "",
        category: "breaking",
        sent: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("push_alerts")
      .set({ payload: JSON.stringify({ ...payload, alertId: Number(alert.id) }) })
      .where("id", "=", alert.id)
      .execute();
    const claimedUntil = new Date(now.getTime() + 60_000).toISOString();
    await db
      .insertInto("push_deliveries")
      .values({
        alert_id: Number(alert.id),
        endpoint: readers.local.endpoint,
        due_at: now.toISOString(),
        claimed_until: claimedUntil,
      })
      .execute();
    const before = push.requests(readers.local.endpoint);
    clock.moveTo(now.getTime() + 61_000);
    await settled(id);
    expect(push.requests(readers.local.endpoint)).toBe(before + 1);
    expect(payloadsOf(readers.local).filter((message) => message.alertId === Number(alert.id))).toHaveLength(1);
  });

  it("asks for confirmation past the alerts per hour, and sends nothing without it", async () => {
    await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, alertsPerHour: 1 }, null, new Date(clock.now()));
    await vi.waitFor(
      async () =>
        expect(await (await get(`${b.url}/dashboard/alerts`, { cookie: editor })).text()).toContain(
          `${pm.perHourLimit}: ${(1).toLocaleString("ar-LB")}`,
        ),
      within5s,
    );
    const title = "عاجل: حريق في سوق الخضار";
    const refused = await publishOn(b, editor, title, { category: "breaking" });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { fields?: Record<string, string> } };
    expect(body.error.fields?.sendAlert).toBe(pm.overLimit);
    expect(await db.selectFrom("news").select("id").where("title", "=", title).execute()).toEqual([]);
    const id = await published(b, title, { category: "breaking", confirmAlert: "on" });
    expect(Number((await settled(id)).delivered)).toBe(2);
  });

  it("holds the limit when two editors on two instances publish with an alert at once: one is queued, the other asked to confirm, nothing of it stored", async () => {
    const hourAgo = new Date(clock.now() - 3_600_000).toISOString();
    const alertsThisHour = async () =>
      Number(
        (
          await db
            .selectFrom("push_alerts")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("created_at", ">=", hourAgo)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const limit = (await alertsThisHour()) + 1;
    await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, alertsPerHour: limit }, null, new Date(clock.now()));
    for (const server of [a, b]) {
      await vi.waitFor(
        async () =>
          expect(await (await get(`${server.url}/dashboard/alerts`, { cookie: editor })).text()).toContain(
            `${pm.perHourLimit}: ${limit.toLocaleString("ar-LB")}`,
          ),
        within5s,
      );
    }
    const nightDesk = await signedInAs(db, a.site, {
      email: "night-desk@example.com",
      username: "المناوب",
      role: "editor",
    });
    const stories = await Promise.all(
      [
        { server: a, cookie: editor, title: "افتتاح سوق البلدية الجديد" },
        { server: b, cookie: nightDesk, title: "إغلاق طريق المرفأ للصيانة" },
      ].map(async (story) => ({
        ...story,
        id: (await createTestArticle(db, { title: story.title, status: "draft" })).id,
      })),
    );
    const eventsOf = async (id: string) =>
      (await db.selectFrom("events").select("id").where("article_id", "=", id).execute()).length;
    const eventsBefore = await Promise.all(stories.map((story) => eventsOf(story.id)));
    const versionsBefore = await Promise.all(stories.map((story) => storedVersion(db, story.id)));
    const picture = [{ field: "images", name: "photo.png", bytes: await pngBytes(64, 64) }];
    const imagesDir = path.join(a.env.MEDIA_DIR, "news-images");
    const storedFiles = () => (existsSync(imagesDir) ? readdirSync(imagesDir).length : 0);
    const filesPerPicture = 1 + IMAGE_WIDTHS.length;
    const filesBefore = storedFiles();

    // Both stories' writes wait for the test's lock. A picture is stored after the form is checked and
    // before the story is written: once both are, both requests have come as far as they can.
    const held = await holdArticleWrites(site.database.url);
    const answers = Promise.all(
      stories.map(({ server, cookie, id, title }) =>
        putArticle(server.url, { cookie }, id, publishForm(title, { sendAlert: "on" }, picture), {
          origin: server.url,
        }),
      ),
    );
    try {
      await vi.waitFor(() => expect(storedFiles()).toBe(filesBefore + 2 * filesPerPicture), within5s);
    } finally {
      await held.release();
    }
    const results = await answers;

    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    const refusedAt = results.findIndex((result) => result.status === 400);
    const refused = stories[refusedAt]!;
    const queued = stories[1 - refusedAt]!;
    expect(results[refusedAt]!.json.error).toMatchObject({
      reason: "alert-limit",
      fields: { sendAlert: pm.overLimit },
    });
    expect(await alertsThisHour()).toBe(limit);
    expect((await alertOf(queued.id))?.kind).toBe("manual");
    expect(await alertOf(refused.id)).toBeUndefined();
    // The refused story is as it was: a draft of the same version, no revision, no event, its picture removed.
    const refusedRow = await db
      .selectFrom("news")
      .select(["status", "version"])
      .where("id", "=", refused.id)
      .executeTakeFirstOrThrow();
    expect({ status: refusedRow.status, version: Number(refusedRow.version) }).toEqual({
      status: "draft",
      version: versionsBefore[refusedAt],
    });
    expect(await db.selectFrom("news_revisions").select("id").where("news_id", "=", refused.id).execute()).toEqual([]);
    expect(await eventsOf(refused.id)).toBe(eventsBefore[refusedAt]);
    expect(storedFiles()).toBe(filesBefore + filesPerPicture);
  });

  it("counts an open once per delivered notification, by the token its payload carried; a post without one counts nothing", async () => {
    const [first, second] = [readers.breakingOnly, readers.local].map(
      (reader) => push.messages(reader.endpoint)[0]!.payload as { alertId: number; open: string },
    );
    const { alertId, open } = first!;
    expect(second!.alertId).toBe(alertId);
    expect(second!.open).not.toBe(open);
    const opened = async (id = alertId) =>
      Number(
        (await db.selectFrom("push_alerts").select("opened").where("id", "=", id).executeTakeFirstOrThrow()).opened,
      );
    const before = await opened();
    const post = (server: TestServer, body: unknown) => sendJson(server, "/api/push/opened", "POST", body);

    // Anyone may post, as often as they like: without a token, or with one the site did not make, nothing counts.
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(i % 2 ? a : b, { alertId })));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([400]));
    expect(((await answers[0]!.json()) as { error: { message: string } }).error.message).toBe(pm.openedInvalid);
    const otherAlert = Number(
      (
        await db
          .selectFrom("push_alerts")
          .select("id")
          .where("id", "!=", alertId)
          .orderBy("id", "desc")
          .executeTakeFirstOrThrow()
      ).id,
    );
    const otherBefore = await opened(otherAlert);
    for (const forged of [
      { alertId, open: "1.AAAAAAAAAAAAAAAAAAAAAA" },
      { alertId, open: open.replace(/^\d+/, (n) => String(Number(n) + 1)) },
      { alertId: otherAlert, open },
    ]) {
      expect((await post(a, forged)).status, JSON.stringify(forged)).toBe(400);
    }
    expect(await opened()).toBe(before);
    expect(await opened(otherAlert)).toBe(otherBefore);

    // A delivered notification's token counts once, on whichever instance; another reader's counts too.
    for (const server of [a, b, a]) expect((await post(server, { alertId, open })).status).toBe(204);
    expect(await opened()).toBe(before + 1);
    expect((await post(b, second)).status).toBe(204);
    expect(await opened()).toBe(before + 2);

    expect((await post(b, { alertId: "1", open })).status).toBe(400);
    expect((await post(b, { alertId: 999_999, open: openToken(a.env.AUTH_SECRET, 999_999, 1) })).status).toBe(404);
  });

  it("shows editors the subscribers and each alert's counts", async () => {
    const page = await get(`${a.url}/dashboard/alerts`, { cookie: editor });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-testid="subscribers-total">${(2).toLocaleString("ar-LB")}<`);
    expect(html).toContain("عاجل: إغلاق الطريق الساحلي");
    expect((await get(`${a.url}/dashboard/alerts`, { cookie: author })).status).toBe(403);
  });
});
