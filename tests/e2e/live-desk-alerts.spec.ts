import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { liveDeskMessages, pushMessages } from "../../app/lib/newsroom-messages";
import { NEUTRAL_SETTINGS } from "../../app/lib/site-settings";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import { createArticle } from "../../app/server/news/articles-write.server";
import { writeSiteSettings } from "../../app/server/site-settings/site-settings.server";
import { signedInAs } from "../../harness/accounts";
import { startPushService, type PushService, type Subscription } from "../../harness/push-service";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { SPEC_PORT_BASE } from "./servers";
import { contextWithSession, hydrated, watchConsole } from "./support";
import { expect, test } from "./test";

/**
 * The live desk in Chromium: an alert past the site's alerts per hour is confirmed as the article form
 * confirms it, the update's text kept meanwhile; a post whose answer is lost is sent again and posted once.
 */
const SHOTS = path.resolve(".tmp/live-desk-alerts");
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

async function write(page: Page, text: string): Promise<void> {
  const editor = page.getByRole("textbox", { name: liveDeskMessages.newUpdate });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

test.describe("the live desk's alerts and repeated posts", () => {
  let site: TestSite;
  let server: TestServer;
  let db: DB;
  let push: PushService;
  let reader: Subscription;
  let cookie = "";
  let storyId = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    push = await startPushService({ port: SPEC_PORT_BASE + 12 });
    site = await startTestSite(1, { TEST_LOOPBACK_PUSH: "1" });
    server = site.servers[0]!;
    db = openDatabase(site.database.url, 1);
    cookie = await signedInAs(db, server.site, {
      email: "desk-alerts@example.com",
      username: "ريم الحسن",
      role: "editor",
    });
    storyId = (
      await createArticle(db, {
        title: "الانتخابات البلدية: فرز الأصوات في طرابلس",
        content: "بدأ الفرز مساء الأحد.",
        category: "local",
        silent: true,
      })
    ).id;
    reader = push.subscribe();
    const subscribed = await fetch(`${server.url}/api/push/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ subscription: reader, categories: ["local"] }),
      headers: { "content-type": "application/json", origin: server.url },
    });
    expect(subscribed.status).toBe(201);
    // One alert allowed an hour, and one already sent: the desk's next alert is past the limit.
    await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, alertsPerHour: 1 }, null, new Date());
    await createArticle(db, { title: "عاجل: انقطاع الكهرباء", content: "انقطاع شامل", category: "breaking" });
  });
  test.afterAll(async () => {
    await db?.destroy();
    await site?.stop();
    await push?.stop();
  });

  const updatesStored = async () =>
    await db
      .selectFrom("live_updates")
      .select(["id", "text", "alert"])
      .where("news_id", "=", storyId)
      .orderBy("created_at")
      .execute();

  test("an alert past the hourly limit asks to confirm, keeps the text, then posts and sends it; a post whose answer is lost is sent again once", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const context = await contextWithSession(browser, server.url, cookie);
    const desk = await context.newPage();
    const errors = watchConsole(desk);
    await desk.setViewportSize(PHONE);
    await desk.goto(`/edit-news/${storyId}/live`);
    await hydrated(desk);
    await desk.getByRole("button", { name: liveDeskMessages.open }).click();
    await expect(desk.getByRole("button", { name: liveDeskMessages.post })).toBeVisible();

    // The alert's field says who it reaches: a local story's subscribers, not the breaking-only ones.
    const alertField = desk.getByTestId("alert-field");
    await expect(alertField).toContainText(liveDeskMessages.alertHintCategory("أخبار محلية"));

    const text = "النتائج الأولية في الميناء: اللائحة الأولى في المقدمة.";
    await write(desk, text);
    await alertField.getByLabel(liveDeskMessages.alertLabel).check();
    await desk.getByRole("button", { name: liveDeskMessages.post }).click();
    // Refused past the limit: the reason and a confirmation beside the field; the text is still there; nothing stored.
    await expect(alertField.getByRole("alert")).toContainText(pushMessages.overLimit);
    await expect(desk.getByRole("textbox", { name: liveDeskMessages.newUpdate })).toHaveText(text);
    await expect(alertField.getByLabel(liveDeskMessages.alertLabel)).toBeChecked();
    expect(await updatesStored()).toEqual([]);
    await desk.screenshot({ path: path.join(SHOTS, "desk-375-confirm.png"), fullPage: true });
    await desk.setViewportSize(DESKTOP);
    await desk.screenshot({ path: path.join(SHOTS, "desk-1280-confirm.png"), fullPage: true });

    await alertField.getByLabel(pushMessages.confirmAlert).check();
    await desk.getByRole("button", { name: liveDeskMessages.post }).click();
    await expect(desk.getByTestId("desk-update")).toHaveCount(1);
    await expect(desk.getByTestId("desk-update").first()).toContainText(liveDeskMessages.alertUpdate);
    await expect(desk.getByRole("textbox", { name: liveDeskMessages.newUpdate })).toHaveText("");
    await expect(alertField.getByLabel(liveDeskMessages.alertLabel)).not.toBeChecked();
    await expect(alertField.getByLabel(pushMessages.confirmAlert)).toHaveCount(0);
    const [alerted] = await updatesStored();
    expect(alerted).toMatchObject({ text });
    const liveTags = () =>
      push
        .messages(reader.endpoint)
        .map((m) => (m.payload as { tag: string }).tag)
        .filter((tag) => tag.startsWith("live-"));
    await expect.poll(liveTags).toEqual([`live-${alerted!.id}`]);

    // The next post reaches the server and is stored, but its answer never comes back (the connection drops).
    await desk.route(
      (url) => url.pathname.endsWith("/live.data"),
      async (route) => {
        await route.fetch();
        await route.abort("connectionreset");
      },
      { times: 1 },
    );
    const again = "نسبة الاقتراع في طرابلس بلغت ٣٨٪.";
    await write(desk, again);
    await desk.getByRole("button", { name: liveDeskMessages.post }).click();
    await expect(desk.getByText(liveDeskMessages.connectionLost)).toBeVisible();
    await expect(desk.getByRole("textbox", { name: liveDeskMessages.newUpdate })).toHaveText(again);
    expect((await updatesStored()).map((u) => u.text)).toEqual([text, again]);
    // Sent again from the same form: the stored update is the answer, and nothing is posted twice.
    await desk.getByRole("button", { name: liveDeskMessages.post }).click();
    await expect(desk.getByTestId("desk-update")).toHaveCount(2);
    await expect(desk.getByText(liveDeskMessages.connectionLost)).toHaveCount(0);
    await expect(desk.getByRole("textbox", { name: liveDeskMessages.newUpdate })).toHaveText("");
    expect((await updatesStored()).map((u) => u.text)).toEqual([text, again]);
    errors();
    await context.close();
  });
});
