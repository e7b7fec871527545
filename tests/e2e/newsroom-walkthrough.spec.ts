import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Role } from "../../app/lib/constants";
import { formatDateTime } from "../../app/lib/dates";
import { messages } from "../../app/lib/messages";
import { conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { DEMO_SITES, FILES_DIR, type E2EServer, widthsOn } from "./servers";
import {
  articleIdByTitle,
  beirutWallTimeAhead,
  createMember,
  hydrated,
  readSiteDatabase,
  signedInState,
  fillBody,
  bodyEditor,
} from "./support";
import { expect, test } from "./test";

// One story across the newsroom's roles, at a phone's width and a desktop's.
const SHOTS = path.resolve(".tmp/walkthrough");
const STATES = FILES_DIR;
const SCHEDULE_AHEAD_SECONDS = 120;

/** The story's category: one whose article count on the demo sites no other spec asserts (public-site counts /local). */
const CATEGORY = "miscellaneous";
const CATEGORY_PATH = "/miscellaneous";

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(clientWidth!);
}

const articleRow = (site: E2EServer, id: string) =>
  readSiteDatabase(site, (db) =>
    db
      .selectFrom("news")
      .select(["status", "content", "publish_at", "published_at", "deleted_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow(),
  );

/** The text of `main` on `path`, read afresh: the reader's view of a public page. */
async function mainText(page: Page, pagePath: string): Promise<string> {
  await page.goto(pagePath);
  return (await page.locator("main").textContent()) ?? "";
}

test.describe.configure({ mode: "parallel" });
// A step that cannot happen fails in seconds, not at the end of the long timeout below.
test.use({ navigationTimeout: 15_000, actionTimeout: 15_000 });

for (const site of DEMO_SITES)
  for (const width of widthsOn(site)) {
    test(`on ${site.engine} at ${width} px: written, sent back, fixed, scheduled, out on its own with its byline, an edit reverted, deleted and restored`, async ({
      browser,
    }) => {
      // The story's dozens of pages, on a machine shared with other work.
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      const suffix = `${site.engine}-${width}-${Date.now()}`;
      const authorName = "ريم الخطيب";
      const accounts: Record<Exclude<Role, "admin" | "user">, string> = {
        author: await signedInState(
          await createMember("author", authorName, site, `walk-author-${suffix}`),
          path.join(STATES, `walk-author-${suffix}.json`),
          site,
        ),
        editor: await signedInState(
          await createMember("editor", "سامر حداد", site, `walk-editor-${suffix}`),
          path.join(STATES, `walk-editor-${suffix}.json`),
          site,
        ),
      };
      const open = async (storageState: string | undefined) => {
        const context = await browser.newContext({
          baseURL: site.url,
          storageState: storageState ?? { cookies: [], origins: [] },
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        page.on("dialog", (dialog) => void dialog.accept());
        return page;
      };
      const shot = (page: Page, name: string) =>
        page.screenshot({ path: path.join(SHOTS, `${site.engine}-${width}-${name}.png`), fullPage: true });

      const title = `افتتاح سوق المزارعين في حلبا ${suffix}`;
      const firstDraft = "يفتتح السوق أبوابه للمزارعين.";
      const fixedText = "يفتتح سوق المزارعين في حلبا أبوابه يوم السبت بتنظيم من البلدية.";
      const wrongEdit = "نص فيه خطأ فادح سيُسحب.";
      const note = "أضيفي موعد الافتتاح والجهة المنظمة.";

      // The author writes and submits for review.
      const author = await open(accounts.author);
      await author.goto("/dashboard");
      await hydrated(author);
      await noSidewaysScroll(author);
      await author.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await fillBody(author, firstDraft);
      await author.getByLabel(newsroomMessages.fieldCategory).selectOption(CATEGORY);
      await author.getByLabel(new RegExp(newsroomMessages.statusSubmitReview)).check();
      await shot(author, "1-author-writes");
      await author.getByRole("button", { name: conflictMessages.submitReview }).click();
      await author.waitForURL(/\/dashboard\?saved=/);
      const id = await articleIdByTitle(site, title);
      expect((await articleRow(site, id)).status).toBe("review");

      // The editor finds it in the review queue and sends it back with a note.
      const editor = await open(accounts.editor);
      await editor.goto("/dashboard");
      const queue = editor.getByTestId("review-queue");
      await expect(queue).toContainText(title);
      await expect(queue).toContainText(authorName);
      await noSidewaysScroll(editor);
      await shot(editor, "2-editor-review-queue");
      await queue.getByRole("link", { name: title }).click();
      await hydrated(editor);
      await editor.getByLabel(newsroomMessages.reviewNote).fill(note);
      await noSidewaysScroll(editor);
      await shot(editor, "3-editor-sends-back");
      await editor.getByRole("button", { name: newsroomMessages.sendBack }).click();
      await expect(editor.getByRole("status")).toContainText(newsroomMessages.sentBack);
      expect((await articleRow(site, id)).status).toBe("draft");

      // The author sees the note, fixes the text and resubmits.
      await author.goto("/dashboard");
      await expect(author.getByTestId("sent-back")).toContainText(note);
      await noSidewaysScroll(author);
      await author.getByTestId("sent-back").getByRole("link", { name: title }).click();
      await expect(author.getByTestId("editor-note")).toContainText(note);
      await hydrated(author);
      await noSidewaysScroll(author);
      await shot(author, "4-author-sees-note");
      await fillBody(author, fixedText);
      await author.getByLabel(new RegExp(newsroomMessages.statusSubmitReview)).check();
      await author.getByRole("button", { name: conflictMessages.submitReview }).click();
      await author.waitForURL((url) => url.pathname === "/dashboard");
      await expect(author.getByTestId("sent-back")).toHaveCount(0);
      expect((await articleRow(site, id)).status).toBe("review");

      // The editor schedules it two minutes ahead.
      await editor.goto("/dashboard");
      await editor.getByTestId("review-queue").getByRole("link", { name: title }).click();
      await hydrated(editor);
      await expect(editor.getByTestId("editor-note")).toHaveCount(0);
      await expect(bodyEditor(editor)).toHaveText(fixedText);
      await editor.getByLabel(newsroomMessages.statusScheduled).check();
      await editor.getByLabel(newsroomMessages.publishAt).fill(beirutWallTimeAhead(site, SCHEDULE_AHEAD_SECONDS));
      await noSidewaysScroll(editor);
      await shot(editor, "5-editor-schedules");
      await editor.getByRole("button", { name: conflictMessages.submitSchedule }).click();
      await editor.waitForURL((url) => !url.pathname.startsWith("/edit-news/"));
      const scheduled = await articleRow(site, id);
      expect(scheduled.status).toBe("scheduled");
      const publishAt = Date.parse(scheduled.publish_at!);
      expect(publishAt).toBeGreaterThan(site.clock.now() + (SCHEDULE_AHEAD_SECONDS - 30) * 1000);

      // Nothing public yet; then, once the site's clock reaches the time, it appears on its own, on the
      // home page and its category page.
      const reader = await open(undefined);
      expect(await mainText(reader, "/")).not.toContain(title);
      expect(await mainText(reader, CATEGORY_PATH)).not.toContain(title);
      expect((await reader.goto(`/news/${id}`))?.status()).toBe(404);
      expect((await articleRow(site, id)).status).toBe("scheduled");
      site.clock.moveTo(publishAt);
      await expect.poll(() => mainText(reader, "/"), { timeout: 20_000, intervals: [500] }).toContain(title);
      expect(await mainText(reader, CATEGORY_PATH)).toContain(title);
      const published = await articleRow(site, id);
      expect(published.status).toBe("published");
      // At its time: the scheduler's next rounds (every 500 ms) after the clock got there.
      expect(Date.parse(published.published_at!) - publishAt).toBeGreaterThanOrEqual(0);
      expect(Date.parse(published.published_at!) - publishAt).toBeLessThan(20_000);
      await noSidewaysScroll(reader);
      await shot(reader, "6-reader-category");

      // The reader sees the publication time (not the writing time) and the author's byline.
      await reader.getByRole("link", { name: title }).first().click();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
      const header = reader.locator("header").filter({ has: reader.getByRole("heading", { level: 1 }) });
      await expect(header.getByTestId("byline")).toHaveText(`${messages.byAuthor} ${authorName}`);
      const shownTime = header.locator("time").first();
      expect(Date.parse((await shownTime.getAttribute("datetime"))!)).toBe(Date.parse(published.published_at!));
      await expect(shownTime).toHaveText(formatDateTime(published.published_at!));
      await expect(reader.getByTestId("article-content")).toHaveText(fixedText);
      await noSidewaysScroll(reader);
      await shot(reader, "7-reader-article");

      // The editor edits it, then reverts that edit from the history; the reader sees the original text.
      await editor.goto(`/edit-news/${id}`);
      await hydrated(editor);
      await fillBody(editor, wrongEdit);
      await editor.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await expect(editor.getByTestId("article-content")).toHaveText(wrongEdit);
      await reader.reload();
      await expect(reader.getByTestId("article-content")).toHaveText(wrongEdit);
      await editor.goto(`/edit-news/${id}`);
      await hydrated(editor);
      await noSidewaysScroll(editor);
      await shot(editor, "8-editor-history");
      const latest = editor.getByTestId("revision").first();
      await expect(latest).toContainText(title);
      await latest.getByRole("link", { name: newsroomMessages.viewRevision }).click();
      await expect(editor.getByTestId("article-content")).toHaveText(fixedText);
      await hydrated(editor);
      await noSidewaysScroll(editor);
      await editor.getByTestId("restore-full").getByRole("button").click();
      await expect(editor.getByRole("status").filter({ hasText: newsroomMessages.revisionRestored })).toBeVisible();
      await expect(bodyEditor(editor)).toHaveText(fixedText);
      await reader.reload();
      await expect(reader.getByTestId("article-content")).toHaveText(fixedText);
      expect((await articleRow(site, id)).status).toBe("published");

      // The editor deletes it: gone from every public page; restored from the trash, it is public again.
      await editor.goto(`/news/${id}`);
      await hydrated(editor);
      await editor.getByTestId("admin-tools").getByRole("button", { name: messages.delete }).click();
      await expect(editor).toHaveURL(`${site.url}/`);
      expect((await reader.goto(`/news/${id}`))?.status()).toBe(404);
      expect(await mainText(reader, "/")).not.toContain(title);
      expect(await mainText(reader, CATEGORY_PATH)).not.toContain(title);

      await editor.goto("/dashboard");
      await editor.getByRole("link", { name: newsroomMessages.trashTitle }).click();
      const trashed = editor.getByTestId("trash-item").filter({ hasText: title });
      await expect(trashed).toContainText(newsroomMessages.statusPublished);
      await hydrated(editor);
      await noSidewaysScroll(editor);
      await shot(editor, "9-editor-trash");
      await trashed.getByRole("button", { name: newsroomMessages.restoreFromTrash }).click();
      await expect(editor.getByRole("status").filter({ hasText: newsroomMessages.restoredFromTrash })).toBeVisible();
      await expect(editor.getByTestId("trash-item").filter({ hasText: title })).toHaveCount(0);
      expect(await mainText(reader, CATEGORY_PATH)).toContain(title);
      expect(await mainText(reader, "/")).toContain(title);
      await reader.goto(`/news/${id}`);
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(reader.getByTestId("article-content")).toHaveText(fixedText);
      await expect(
        reader
          .locator("header")
          .filter({ has: reader.getByRole("heading", { level: 1 }) })
          .getByTestId("byline"),
      ).toHaveText(`${messages.byAuthor} ${authorName}`);
      await shot(reader, "10-reader-restored");

      await editor.goto("/dashboard");
      await noSidewaysScroll(editor);
      await shot(editor, "11-editor-dashboard");
      for (const page of [author, editor, reader]) await page.context().close();
    });
  }

for (const site of DEMO_SITES) {
  test(`on ${site.engine}: submitting while the first autosave is under way saves into the draft it made, not a refused duplicate`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const suffix = `${site.engine}-race-${Date.now()}`;
    const state = await signedInState(
      await createMember("author", "ريم الخطيب", site, `walk-author-${suffix}`),
      path.join(STATES, `walk-author-${suffix}.json`),
      site,
    );
    const context = await browser.newContext({ baseURL: site.url, storageState: state });
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    // The autosave reaches the server (which makes the draft), but its answer is held until the form is submitted.
    let autosaveSent = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/news/autosave", async (route) => {
      autosaveSent = true;
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    const title = `خبر يُرسل أثناء الحفظ التلقائي ${suffix}`;
    await page.goto("/dashboard");
    await hydrated(page);
    await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
    await fillBody(page, "نص الخبر.");
    await expect.poll(() => autosaveSent, { timeout: 15_000 }).toBe(true);
    await page.getByLabel(new RegExp(newsroomMessages.statusSubmitReview)).check();
    await page.getByRole("button", { name: conflictMessages.submitReview }).click();
    release();
    await page.waitForURL(/\/dashboard\?saved=/);
    const rows = await readSiteDatabase(site, (db) =>
      db.selectFrom("news").select("status").where("title", "=", title).execute(),
    );
    expect(rows).toEqual([{ status: "review" }]);
    await context.close();
  });
}
