import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { monthOf, monthParam } from "../../app/lib/calendar-month";
import { newsroomMessages, revisionMessages } from "../../app/lib/newsroom-messages";
import { updateArticle } from "../../app/server/news/articles-write.server";
import { createTestArticle } from "../../harness/articles";
import { DEMO_SITES, FILES_DIR } from "./servers";
import { createAdmin, hydrated, readSiteDatabase, signedInState, watchConsole } from "./support";
import { expect, test } from "./test";

const SHOTS = path.resolve(".tmp/revisions-shots");

for (const site of DEMO_SITES) {
  test.describe(`revisions and the calendar on ${site.engine}`, () => {
    test.use({ baseURL: site.url });
    const STATE = path.join(FILES_DIR, `revisions-state-${site.name}.json`);

    test.beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      await signedInState(await createAdmin("revisions", "محررة النسخ", site), STATE, site);
    });
    test.use({ storageState: STATE, viewport: { width: 1280, height: 900 } });

    /** The page at both widths, each checked for sideways scrolling, then back to the desktop width. */
    async function shots(page: Page, name: string) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          `${name} at ${width}`,
        ).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `${site.name}-${width}-${name}.png`), fullPage: true });
      }
    }

    test("a revision compared, its text restored without its pictures leaving, and the scheduled calendar", async ({
      page,
    }) => {
      const consoleClean = watchConsole(page);
      const stamp = Date.now();
      const title = `افتتاح المكتبة ${stamp}`;
      const scheduledTitle = `جلسة مجلس الوزراء المجدولة ${stamp}`;
      const publishAt = new Date(site.clock.now() + 3 * 86_400_000);
      const { id, image } = await readSiteDatabase(site, async (db) => {
        const pictured = await db
          .selectFrom("news")
          .select("images")
          .where("images", "!=", "[]")
          .where("status", "=", "published")
          .executeTakeFirstOrThrow();
        const image = (JSON.parse(pictured.images) as string[])[0]!;
        const { id } = await createTestArticle(db, {
          title,
          content: "وصل الوفد إلى طرابلس صباح الأحد لافتتاح المكتبة.",
        });
        const edit = {
          title: `${title} الجديد`,
          content: "وصل الوفد الرسمي إلى بيروت صباح الأحد لافتتاح المكتبة.",
          category: "local" as const,
          status: "published" as const,
          imageUrl: null,
          images: [image],
          video: null,
        };
        await updateArticle(db, id, edit, { by: null, kind: "save" });
        await createTestArticle(db, {
          title: scheduledTitle,
          content: "نص",
          status: "scheduled",
          publishAt: publishAt.toISOString(),
        });
        return { id, image };
      });

      await page.goto(`/edit-news/${id}`);
      await hydrated(page);
      const revision = page.getByTestId("revision").first();
      await expect(revision).toContainText(revisionMessages.kindCreated);
      await expect(page.getByTestId("current-version")).toContainText(revisionMessages.kindSave);
      await revision.getByTestId("compare-revision").click();

      const text = page.getByTestId("diff-text");
      await expect(text.locator("ins")).toHaveText(["الرسمي ", "بيروت "]);
      await expect(text.locator("del")).toHaveText(["طرابلس "]);
      await expect(text.locator("p")).toHaveAttribute("dir", "rtl");
      await expect(page.getByTestId("diff-media").getByTestId("media-added")).toContainText(
        revisionMessages.imageAdded,
      );
      await hydrated(page);
      await shots(page, "compare");

      await page.getByRole("link", { name: newsroomMessages.restoreRevision, exact: true }).click();
      await expect(
        page.getByTestId("restore-full").getByTestId("restore-removals").locator(`input[value="${image}"]`),
      ).toHaveCount(1);
      await expect(page.getByTestId("restore-text").getByTestId("restore-removals")).toHaveCount(0);
      await hydrated(page);
      await shots(page, "restore-preview");
      await page.getByTestId("restore-text").getByRole("button", { name: revisionMessages.restoreText }).click();
      await expect(page.getByRole("status").filter({ hasText: revisionMessages.restoredText })).toBeVisible();
      const row = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select(["title", "content", "images"]).where("id", "=", id).executeTakeFirstOrThrow(),
      );
      expect(row).toEqual({
        title,
        content: "وصل الوفد إلى طرابلس صباح الأحد لافتتاح المكتبة.",
        images: JSON.stringify([image]),
      });

      await page.goto(`/dashboard/calendar?month=${monthParam(monthOf(publishAt))}`);
      await hydrated(page);
      await expect(page.getByTestId("calendar-story").filter({ hasText: scheduledTitle })).toHaveAttribute(
        "href",
        /\/edit-news\//,
      );
      await shots(page, "calendar");
      consoleClean();
    });
  });
}
