import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { conflictMessages, newsroomMessages, storyMessages } from "../../app/lib/newsroom-messages";
import { categoryLabel } from "../../app/lib/categories";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { contextWithSession, hydrated } from "./support";
import { expect, test } from "./test";

/*
 * Two people on one story, each on another instance of one site (decision 034): each sees the other
 * on the form, the second save is refused with the two versions side by side, and settled by keeping
 * one's own or merging by hand.
 */

const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const SHOTS = path.resolve(".tmp/edit-conflicts");

for (const engine of ENGINES) {
  test.describe(`two people on one story, two instances on one ${engine} database`, () => {
    let site: TestSite;
    let a: TestServer;
    let b: TestServer;
    let db: DB;
    let salma = "";
    let karim = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      site = await startTestSite(2, {}, engine);
      [a, b] = site.servers as [TestServer, TestServer];
      db = openDatabase(site.database.url, 1);
      salma = await signedInAs(db, a.site, { email: "salma@example.com", username: "سلمى المحررة", role: "editor" });
      karim = await signedInAs(db, a.site, { email: "karim@example.com", username: "كريم المدير", role: "admin" });
    });
    test.afterAll(async () => {
      await db?.destroy();
      await site?.stop();
    });

    async function formOn(browser: Browser, server: TestServer, cookie: string, id: string): Promise<Page> {
      const page = await (await contextWithSession(browser, server.url, cookie)).newPage();
      page.on("dialog", (dialog) => void dialog.accept());
      await page.goto(`${server.url}/edit-news/${id}`);
      await hydrated(page);
      return page;
    }
    const stored = (id: string) =>
      db.selectFrom("news").select(["title", "category", "version"]).where("id", "=", id).executeTakeFirstOrThrow();

    test("both see each other; the second save is refused with the comparison, then kept; a second round is merged by hand", async ({
      browser,
    }) => {
      const { id } = await createTestArticle(db, {
        title: "الأصل",
        content: "نص الخبر الأصلي في ثلاث كلمات وأكثر",
        category: "local",
      });
      const editor = await formOn(browser, a, salma, id);
      const admin = await formOn(browser, b, karim, id);

      await expect(admin.getByTestId("edit-presence")).toHaveText(`${conflictMessages.editingNow} سلمى المحررة`, {
        timeout: 5_000,
      });
      await expect(editor.getByTestId("edit-presence")).toHaveText(`${conflictMessages.editingNow} كريم المدير`, {
        timeout: 5_000,
      });
      await expect(admin.getByTestId("body-stats")).toContainText(conflictMessages.wordCount(7));
      await admin.screenshot({ path: path.join(SHOTS, `presence-${engine}-1280.png`) });

      await editor.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill("عنوان سلمى");
      await editor.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await expect(editor).toHaveURL(new RegExp(`/news/${id}`));
      // Leaving the form takes her name off his, on the other instance.
      await expect(admin.getByTestId("edit-presence")).not.toContainText("سلمى", { timeout: 5_000 });

      await admin.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill("عنوان كريم");
      await admin.getByLabel(storyMessages.standfirst).fill("موجز كتبه كريم");
      await admin.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      const conflict = admin.getByTestId("edit-conflict");
      await expect(conflict).toBeVisible();
      await expect(admin.getByRole("alert")).toHaveText(conflictMessages.refused);
      const titleRow = conflict.getByTestId("conflict-title");
      await expect(titleRow).toContainText("عنوان كريم");
      await expect(titleRow).toContainText("عنوان سلمى");
      await expect(conflict.getByTestId("conflict-standfirst")).toContainText("موجز كتبه كريم");
      expect((await stored(id)).title).toBe("عنوان سلمى");
      for (const width of [1280, 375]) {
        await admin.setViewportSize({ width, height: 900 });
        await conflict.scrollIntoViewIfNeeded();
        await admin.screenshot({ path: path.join(SHOTS, `conflict-${engine}-${width}.png`) });
        const overflow = await admin.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await admin.setViewportSize({ width: 1280, height: 900 });

      await conflict.getByRole("button", { name: conflictMessages.keepMine }).click();
      await expect(admin).toHaveURL(new RegExp(`/news/${id}`));
      expect(await stored(id)).toMatchObject({ title: "عنوان كريم", version: 3 });

      // Round two: she changes the section, he the title; he merges by hand, taking her section.
      await editor.goto(`${a.url}/edit-news/${id}`);
      await hydrated(editor);
      await admin.goto(`${b.url}/edit-news/${id}`);
      await hydrated(admin);
      await editor.getByLabel(newsroomMessages.fieldCategory).selectOption("sports");
      await editor.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await expect(editor).toHaveURL(new RegExp(`/news/${id}`));
      await admin.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill("عنوان مدموج");
      await admin.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      const category = admin.getByTestId("conflict-category");
      await expect(category).toContainText(categoryLabel("sports"));
      await admin.getByRole("button", { name: conflictMessages.mergeByHand }).click();
      await expect(admin.getByText(conflictMessages.mergeHint)).toBeVisible();
      await category.getByRole("button", { name: conflictMessages.useTheirs }).click();
      await expect(admin.getByLabel(newsroomMessages.fieldCategory)).toHaveValue("sports");
      await admin.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await expect(admin).toHaveURL(new RegExp(`/news/${id}`));
      expect(await stored(id)).toMatchObject({ title: "عنوان مدموج", category: "sports", version: 5 });

      await editor.context().close();
      await admin.context().close();
    });
  });
}
