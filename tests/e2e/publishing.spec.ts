import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { categoryLabel } from "../../app/lib/categories";
import { messages } from "../../app/lib/messages";
import { frontPageMessages, conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { pngBytes } from "../../harness/fixtures";
import { shortIdFor } from "../../app/server/news/short-links.server";
import { DEMO_SITES, FILES_DIR } from "./servers";
import { articleIdByTitle, hydrated, readSiteDatabase, fillBody } from "./support";
import { expect, test } from "./test";

for (const site of DEMO_SITES) {
  test.describe(`on ${site.engine}`, () => {
    test.use({
      baseURL: site.url,
      signedInAs: { site, role: "admin", name: "محررة الأخبار", emailPrefix: "editor" },
    });

    const dialogs: string[] = [];

    test.describe.configure({ mode: "serial" });

    test.beforeAll(async () => {
      writeFileSync(path.join(FILES_DIR, "harbour.png"), await pngBytes(1400, 800, "#1d3557"));
      writeFileSync(path.join(FILES_DIR, "market.png"), await pngBytes(1000, 700, "#e9c46a"));
    });

    /** Accepts every alert and confirm, remembering what it said. */
    function acceptDialogs(page: Page) {
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
    }

    async function publish(
      page: Page,
      title: string,
      options: { category?: string; draft?: boolean; images?: string[] } = {},
    ) {
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(`  ${title}  `);
      await fillBody(page, "الفقرة الأولى من الخبر.\n\nالفقرة الثانية من الخبر.");
      await page.getByLabel(newsroomMessages.fieldCategory).selectOption(options.category ?? "sports");
      if (options.draft) await page.getByLabel(new RegExp(newsroomMessages.statusSaveDraft)).check();
      if (options.images)
        await page.setInputFiles(
          "#images",
          options.images.map((f) => path.join(FILES_DIR, f)),
        );
      await page
        .getByRole("button", { name: options.draft ? conflictMessages.submitDraft : newsroomMessages.publishSubmit })
        .click();
      await expect(page.getByRole("status")).toContainText(
        options.draft ? newsroomMessages.savedAsDraft : newsroomMessages.published,
      );
      return articleIdByTitle(site, title);
    }

    test("an admin publishes with two images, finds it on the home page and its category, copies and follows its short link, edits it and deletes it", async ({
      editorPage: page,
      context,
    }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      acceptDialogs(page);

      const title = "نادي طرابلس يفوز بكأس الشمال للمرة الثالثة";
      const id = await publish(page, title, { images: ["harbour.png", "market.png"] });
      const row = page.getByTestId("news-row").first();
      await expect(row).toContainText(title);
      await expect(row).toContainText(newsroomMessages.statusPublished);
      await expect(row).toContainText(categoryLabel("sports"));

      await page.goto("/");
      await expect(page.getByTestId("latest-news")).toContainText(title);
      await page.goto("/sports");
      await expect(page.getByTestId("category-list").getByRole("article").first()).toContainText(title);
      await page
        .getByTestId("category-list")
        .getByRole("link", { name: new RegExp(title) })
        .click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByTestId("article-content").locator("p")).toHaveCount(2);
      const images = page.getByTestId("article-images").locator("img[srcset]");
      await expect(images).toHaveCount(2);
      await hydrated(page);

      const tools = page.getByTestId("admin-tools");
      await tools.getByRole("button", { name: messages.copyShortLink }).click();
      await expect.poll(() => dialogs.at(-1)).toBe(messages.shortLinkCopied);
      const shortUrl = await page.evaluate(() => navigator.clipboard.readText());
      const short_id = await readSiteDatabase(site, (db) => shortIdFor(db, id));
      expect(shortUrl).toBe(`${site.url}/${short_id}`);
      await page.goto(shortUrl);
      await expect(page).toHaveURL(new RegExp(`/news/${id}/[^/]+$`));

      await hydrated(page);
      await page.getByTestId("admin-tools").getByRole("link", { name: messages.edit }).click();
      await expect(page.getByRole("heading", { name: newsroomMessages.editTitle })).toBeVisible();
      await hydrated(page);
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(`${title} (محدّث)`);
      await page.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${title} (محدّث)`);
      expect(dialogs).toContain(messages.updateSucceeded);

      await hydrated(page);
      await page.getByTestId("admin-tools").getByRole("button", { name: messages.delete }).click();
      await expect(page).toHaveURL(`${site.url}/`);
      expect(dialogs).toContain(messages.confirmDeleteArticle);
      expect((await page.goto(`/news/${id}`))?.status()).toBe(404);
      expect((await page.goto(`/${short_id}`))?.status()).toBe(404);
    });

    test("a draft is seen by admins only, as a marked preview, and the empty title is refused in place", async ({
      editorPage: page,
      browser,
    }) => {
      acceptDialogs(page);
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill("   ");
      await fillBody(page, "نص");
      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page.locator("#title-error")).toHaveText(newsroomMessages.titleRequired);
      expect(dialogs).toContain(newsroomMessages.publishFailed);
      await expect(page.getByRole("status")).toHaveCount(0);

      const title = "مسودة: جدول مباريات الدوري المحلي";
      const id = await publish(page, title, { draft: true });
      await expect(page.getByTestId("news-row").first()).toContainText(newsroomMessages.statusDraft);
      const refusedVisits: string[] = [];
      page.on("response", (response) => {
        if (response.url().endsWith("/visit") && !response.ok())
          refusedVisits.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`/news/${id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByTestId("preview-banner")).toContainText(frontPageMessages.previewNotice);
      await hydrated(page);
      expect(refusedVisits).toEqual([]);

      const visitor = await browser.newContext({ baseURL: site.url, storageState: { cookies: [], origins: [] } });
      const reader = await visitor.newPage();
      expect((await reader.goto(`/news/${id}`))?.status()).toBe(404);
      await reader.goto("/sports");
      await expect(reader.getByTestId("category-list")).not.toContainText(title);
      await visitor.close();
    });

    test("deleting from the dashboard and from the breaking list asks first", async ({ editorPage: page }) => {
      acceptDialogs(page);
      const first = "خبر للحذف من لوحة التحكم";
      await publish(page, first, { category: "local" });
      await page
        .getByTestId("news-row")
        .filter({ hasText: first })
        .getByRole("button", { name: messages.delete })
        .click();
      await expect(page.getByTestId("news-table")).not.toContainText(first);
      expect(dialogs).toContain(newsroomMessages.confirmDelete);

      const urgent = "عاجل: خبر للحذف من قائمة العاجل";
      await publish(page, urgent, { category: "breaking" });
      await page.goto("/breaking");
      await hydrated(page);
      const item = page.getByTestId("breaking-list").getByRole("listitem").filter({ hasText: urgent });
      await item.getByRole("button", { name: messages.delete }).click();
      await expect(page.getByTestId("breaking-list")).not.toContainText(urgent);
      expect(dialogs).toContain(messages.confirmDeleteBreaking);
    });

    test("editing a missing article alerts '⚠️ الخبر غير موجود' and goes home", async ({ editorPage: page }) => {
      acceptDialogs(page);
      await page.goto("/edit-news/no-such-article");
      await expect(page).toHaveURL(`${site.url}/`);
      expect(dialogs).toContain(newsroomMessages.newsNotFoundAlert);
    });
  });
}
