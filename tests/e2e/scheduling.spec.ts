import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { DEMO_SITES, widthsOn } from "./servers";
import { articleIdByTitle, beirutWallTimeAhead, hydrated, readSiteDatabase, fillBody } from "./support";
import { expect, test } from "./test";

const SCREENSHOTS = path.resolve(".tmp/e2e-screens/scheduling");

async function noSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

for (const site of DEMO_SITES) {
  test.describe(`scheduling on ${site.engine}`, () => {
    // An admin until the dashboard takes editors; scheduling is an editor's power either way.
    test.use({
      baseURL: site.url,
      signedInAs: { site, role: "admin", name: "محرر الجدولة", emailPrefix: "scheduler" },
    });
    test.describe.configure({ mode: "serial" });

    test.beforeAll(() => mkdirSync(SCREENSHOTS, { recursive: true }));

    for (const width of widthsOn(site)) {
      test.describe(`at ${width} px`, () => {
        test.use({ viewport: { width, height: 900 } });
        test(`an editor schedules a breaking item ten minutes ahead; at that time it appears on the breaking page and home on its own`, async ({
          editorPage: page,
          browser,
        }) => {
          test.setTimeout(60_000);
          page.on("dialog", (dialog) => void dialog.accept());

          const title = `عاجل مجدول على ${width} بكسل: افتتاح مرفأ طرابلس الجديد`;
          await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
          await fillBody(page, "يفتتح المرفأ الجديد أبوابه صباح اليوم.");
          await page.getByLabel(newsroomMessages.fieldCategory).selectOption("breaking");
          const publishAt = page.getByLabel(newsroomMessages.publishAt);
          await expect(publishAt).toBeHidden();
          await page.getByLabel(newsroomMessages.statusScheduled).check();
          await expect(publishAt).toBeVisible();
          await publishAt.fill(beirutWallTimeAhead(site, 600));
          await publishAt.scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(SCREENSHOTS, `form-${site.name}-${width}.png`) });
          await noSidewaysScroll(page);

          // The reader opens the breaking page first and keeps it open: the item must arrive by itself.
          const reader = await browser.newContext({
            baseURL: site.url,
            storageState: { cookies: [], origins: [] },
            viewport: { width, height: 900 },
          });
          const breaking = await reader.newPage();
          await breaking.goto("/breaking");
          await hydrated(breaking);
          const home = await reader.newPage();
          await home.goto("/");

          await page.getByRole("button", { name: conflictMessages.submitSchedule }).click();
          await expect(page).toHaveURL(/\/dashboard\?saved=/);
          const id = await articleIdByTitle(site, title);
          const row = await readSiteDatabase(site, (db) =>
            db.selectFrom("news").select(["status", "publish_at"]).where("id", "=", id).executeTakeFirstOrThrow(),
          );
          expect(row.status).toBe("scheduled");
          await expect(breaking.getByTestId("breaking-list")).not.toContainText(title);
          await home.reload();
          await expect(home.locator("main")).not.toContainText(title);

          site.clock.moveTo(Date.parse(row.publish_at!));
          await expect(breaking.getByTestId("breaking-list")).toContainText(title, { timeout: 20_000 });
          await expect(breaking.getByTestId("breaking-list").locator("li").first()).toContainText(title);
          await expect
            .poll(
              async () => {
                await home.reload();
                return (await home.locator("main").textContent()) ?? "";
              },
              { timeout: 10_000 },
            )
            .toContain(title);
          const published = await readSiteDatabase(site, (db) =>
            db
              .selectFrom("news")
              .leftJoin("short_links", "short_links.news_id", "news.id")
              .select(["news.status", "news.published_at", "short_links.short_id"])
              .where("news.id", "=", id)
              .executeTakeFirstOrThrow(),
          );
          expect(published.status).toBe("published");
          expect(Date.parse(published.published_at!)).toBeGreaterThanOrEqual(Date.parse(row.publish_at!));
          expect(published.short_id).toMatch(/^\d{6}$/);

          await breaking.screenshot({ path: path.join(SCREENSHOTS, `breaking-${site.name}-${width}.png`) });
          await noSidewaysScroll(breaking);
          await reader.close();

          // Edited after publication: readers see when, beside the publication time.
          await page.goto(`/edit-news/${id}`);
          await hydrated(page);
          await fillBody(page, "يفتتح المرفأ الجديد أبوابه صباح اليوم بحضور الوزير.");
          await page.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
          await page.goto(`/news/${id}`);
          await expect(page.getByTestId("last-update")).toContainText(messages.lastUpdated);
          await page.screenshot({ path: path.join(SCREENSHOTS, `article-${site.name}-${width}.png`) });
          await noSidewaysScroll(page);
        });
      });
    }
  });
}
