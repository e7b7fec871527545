import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Category } from "~/lib/categories";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { NEUTRAL_SETTINGS } from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { get, post, type Session } from "../../harness/http-client";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";
import { newSiteClock } from "../support/site-clock";

/*
 * A live update sent as a Web Push alert (decision 040) on the engine under test, delivered to the
 * push service of harness/push-service.ts: who receives it, and the hourly limit confirmed from the desk.
 */

let server: TestServer;
let db: DB;
let push: PushService;
let editor: Session;
const clock = newSiteClock();
const readers: Record<"breakingOnly" | "local" | "sports", Subscription> = {} as never;

beforeAll(async () => {
  push = await startPushService();
  ({ server, db } = await startServerAndDb({ TEST_LOOPBACK_PUSH: "1", ...clock.env }));
  editor = await sessionAs(db, server, {
    email: "live-alerts@example.com",
    username: "مكتب التنبيهات",
    role: "editor",
  });
  for (const [name, categories] of [
    ["breakingOnly", []],
    ["local", ["local"]],
    ["sports", ["sports"]],
  ] as const) {
    readers[name] = push.subscribe();
    const response = await fetch(`${server.url}/api/push/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ subscription: readers[name], categories }),
      headers: { "content-type": "application/json", origin: server.url },
    });
    expect(response.status).toBe(201);
  }
}, 180_000);
afterAll(async () => {
  await stopServerAndDb({ server, db });
  await push?.stop();
  clock.remove();
});

const within5s = { timeout: 5_000, interval: 50 };
const doc = (text: string) =>
  JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

/** A published story of `category` opened as live coverage: its id. */
async function liveStory(title: string, category: Category): Promise<string> {
  const { id } = await createTestArticle(db, { title, category });
  expect((await post(`${server.url}/edit-news/${id}/live`, { intent: "open" }, editor)).status).toBe(200);
  return id;
}

const postUpdate = (storyId: string, fields: Record<string, string>) =>
  post(`${server.url}/edit-news/${storyId}/live`, { intent: "post", ...fields }, editor);

async function updateOf(storyId: string, text: string) {
  return db
    .selectFrom("live_updates")
    .select("id")
    .where("news_id", "=", storyId)
    .where("text", "=", text)
    .executeTakeFirst();
}

/** The alerts each reader received for live update `updateId`. */
function receivedBy(updateId: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(readers).map(([name, reader]) => [
      name,
      push.messages(reader.endpoint).filter((m) => (m.payload as { tag?: string }).tag === `live-${updateId}`).length,
    ]),
  );
}

describe("a live update's alert", () => {
  it("goes to every subscriber when the story is breaking news, and to its category's subscribers otherwise", async () => {
    const breaking = await liveStory("عاجل: عاصفة على الساحل", "breaking");
    expect((await postUpdate(breaking, { body: doc("ارتفاع الموج إلى خمسة أمتار"), sendAlert: "on" })).status).toBe(
      200,
    );
    const stormUpdate = (await updateOf(breaking, "ارتفاع الموج إلى خمسة أمتار"))!.id;
    await vi.waitFor(() => expect(receivedBy(stormUpdate)).toEqual({ breakingOnly: 1, local: 1, sports: 1 }), within5s);
    expect(push.messages(readers.breakingOnly.endpoint).at(-1)).toMatchObject({ urgency: "high" });

    const local = await liveStory("فرز الأصوات في طرابلس", "local");
    expect((await postUpdate(local, { body: doc("النتائج الأولية في الميناء"), sendAlert: "on" })).status).toBe(200);
    const countUpdate = (await updateOf(local, "النتائج الأولية في الميناء"))!.id;
    await vi.waitFor(() => expect(receivedBy(countUpdate)).toEqual({ breakingOnly: 0, local: 1, sports: 0 }), within5s);
    expect(push.rejected()).toEqual([]);
  });

  it("past the alerts per hour asks the desk to confirm, stores nothing until it does, then posts and sends once", async () => {
    const story = await liveStory("عاجل: حريق في سوق الخضار", "breaking");
    await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, alertsPerHour: 1 }, null, new Date(clock.now()));
    // At least one alert this hour: the desk's next is past the limit.
    await createTestArticle(db, {
      title: "عاجل: انقطاع الكهرباء",
      category: "breaking",
      silent: false,
      createdAt: new Date(clock.now()),
    });
    const text = "امتداد الحريق إلى المحال المجاورة";
    const fields = { body: doc(text), sendAlert: "on", submissionId: "desk-confirm-0001" };
    // The site's settings are cached: the limit holds once this process has read it.
    await vi.waitFor(
      async () =>
        expect(await (await get(`${server.url}/dashboard/alerts`, editor)).text()).toContain(
          `${pm.perHourLimit}: ${(1).toLocaleString("ar-LB")}`,
        ),
      within5s,
    );
    expect((await postUpdate(story, fields)).status).toBe(400);
    expect(await updateOf(story, text)).toBeUndefined();

    expect((await postUpdate(story, { ...fields, confirmAlert: "on" })).status).toBe(200);
    const update = (await updateOf(story, text))!.id;
    await vi.waitFor(() => expect(receivedBy(update)).toEqual({ breakingOnly: 1, local: 1, sports: 1 }), within5s);
    expect(await db.selectFrom("push_alerts").select("id").where("live_update_id", "=", update).execute()).toHaveLength(
      1,
    );
  });
});
