import path from "node:path";
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { createArticle } from "../../app/server/news/articles-write.server";
import { DEMO_SITES, FILES_DIR, widthsOn } from "./servers";
import { createAdmin, hydrated, readSiteDatabase, signedInState, fillBody } from "./support";
import { expect, test } from "./test";

const VIEWPORTS = [
  { width: 375, height: 800 },
  { width: 1280, height: 900 },
];
const MARK = `زيتون${Date.now() % 100_000}`;
const DRAFTS = 22;
/** A draft the public search cannot see, spelt as its writer spelt it; the dashboard's search folds the spellings typed. */
const FOLDED_DRAFT = `مسودة ${MARK}: أسعار الخضار في أسواق المنية والكورة`;

for (const site of DEMO_SITES) {
  test.describe(`the dashboard on ${site.engine}`, () => {
    test.use({ baseURL: site.url });
    test.describe.configure({ mode: "serial" });
    const STATE = path.join(FILES_DIR, `dashboard-state-${site.name}.json`);

    test.beforeAll(async () => {
      const admin = await createAdmin("dashboard", "منى الحسن", site);
      await readSiteDatabase(site, async (db) => {
        const { id } = await db
          .selectFrom("user")
          .select("id")
          .where("email", "=", admin.email)
          .executeTakeFirstOrThrow();
        const start = Date.now() - 3_600_000;
        for (let i = 0; i < DRAFTS; i++) {
          await createArticle(db, {
            title: `${MARK} مسودة ${i}`,
            content: "نص",
            category: "sports",
            status: "draft",
            authorId: id,
            createdAt: new Date(start + i * 1000),
          });
        }
        await createArticle(db, {
          title: FOLDED_DRAFT,
          content: "نص",
          category: "local",
          status: "draft",
          authorId: id,
        });
        await createArticle(db, {
          title: `${MARK} بانتظار المراجعة مع عنوان طويل جداً يملأ السطر كله على الهاتف`,
          content: "نص",
          category: "local",
          status: "review",
          authorId: id,
        });
        await createArticle(db, {
          title: `${MARK} منشور بعنوان طويل يملأ خانة العنوان في الجدول على شاشة الحاسوب`,
          content: "نص",
          category: "miscellaneous",
          status: "published",
          authorId: id,
          createdAt: new Date(start),
        });
      });
      await signedInState(admin, STATE, site);
    });
    test.use({ storageState: STATE });

    /** Neither the page nor the list scrolls sideways, and every row's status and actions are on screen. */
    async function noSidewaysScroll(page: Page) {
      const widths = await page.evaluate(() => {
        const list = document.querySelector('[data-testid="news-table"]')!.parentElement!;
        return {
          page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
          list: [list.scrollWidth, list.clientWidth],
        };
      });
      expect(widths.page[0]).toBeLessThanOrEqual(widths.page[1]!);
      expect(widths.list[0]).toBeLessThanOrEqual(widths.list[1]!);
      const viewport = page.viewportSize()!;
      for (const part of ["row-status", "row-actions"]) {
        for (const box of await page
          .getByTestId(part)
          .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect))) {
          expect(box.left).toBeGreaterThanOrEqual(0);
          expect(box.right).toBeLessThanOrEqual(viewport.width);
        }
      }
    }

    for (const viewport of VIEWPORTS.filter(({ width }) => widthsOn(site).includes(width))) {
      test(`at ${viewport.width} px: search, filters and pages live in the URL; statuses and actions show`, async ({
        page,
      }) => {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard");
        await hydrated(page);
        const filters = page.getByTestId("dashboard-filters");
        await filters.getByRole("searchbox", { name: newsroomMessages.filterTitle }).fill(MARK);
        await filters.getByLabel(newsroomMessages.filterByStatus).selectOption("draft");
        await filters.getByLabel(newsroomMessages.filterByCategory).selectOption("sports");
        await filters.getByRole("button", { name: newsroomMessages.filterApply }).click();
        await expect(page).toHaveURL(
          new RegExp(`/dashboard\\?q=${encodeURIComponent(MARK)}&status=draft&category=sports&author=$`),
        );
        const rows = page.getByTestId("news-row");
        await expect(rows).toHaveCount(20);
        await expect(rows.first()).toContainText(`${MARK} مسودة ${DRAFTS - 1}`);
        await expect(rows.first().getByTestId("row-status")).toBeVisible();
        await expect(rows.first().getByRole("link", { name: messages.edit })).toBeVisible();
        await expect(rows.first().getByRole("button", { name: messages.delete })).toBeVisible();
        if (viewport.width < 800) await noSidewaysScroll(page);
        else {
          // The actions of every row sit on one line: a draft's are edit and delete (it has no short link to copy yet).
          const tops = await rows
            .first()
            .getByTestId("row-actions")
            .locator("button, a")
            .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
          expect(tops).toHaveLength(2);
          expect(new Set(tops).size).toBe(1);
        }
        await page.getByRole("link", { name: messages.nextPage }).click();
        await expect(page).toHaveURL(/&page=2$/);
        await expect(page).toHaveURL(/status=draft/);
        await expect(rows).toHaveCount(DRAFTS - 20);
        await expect(page.getByTestId("dashboard-filters").getByLabel(newsroomMessages.filterByStatus)).toHaveValue(
          "draft",
        );

        await page.goto(`/dashboard?q=${encodeURIComponent(MARK)}&status=review`);
        await expect(rows).toHaveCount(1);
        await expect(rows.first().getByTestId("row-status")).toHaveText(newsroomMessages.statusReview);
        await expect(rows.first()).toContainText("منى الحسن");
        if (viewport.width < 800) await noSidewaysScroll(page);
        else {
          // A published row has all three actions (copy the short link, edit, delete), still on one line.
          await page.goto(`/dashboard?q=${encodeURIComponent(MARK)}&status=published`);
          await expect(rows).toHaveCount(1);
          const tops = await rows
            .first()
            .getByTestId("row-actions")
            .locator("button, a")
            .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
          expect(tops).toHaveLength(3);
          expect(new Set(tops).size).toBe(1);
        }
        mkdirSync(".tmp/screens", { recursive: true });
        await page.screenshot({ path: `.tmp/screens/dashboard-${site.name}-${viewport.width}.png`, fullPage: true });
      });

      test(`at ${viewport.width} px: saving a draft says it was saved as a draft`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard");
        await hydrated(page);
        await page
          .getByLabel(newsroomMessages.fieldTitle, { exact: true })
          .fill(`${MARK} مسودة من النموذج ${viewport.width}`);
        await fillBody(page, "نص المسودة.");
        await page.getByLabel(newsroomMessages.fieldByline).fill("مراسلنا في عكار");
        await page.getByLabel(new RegExp(newsroomMessages.statusSaveDraft)).check();
        await page.getByRole("button", { name: conflictMessages.submitDraft }).click();
        const banner = page.getByTestId("saved-banner");
        await expect(banner).toContainText(newsroomMessages.savedAsDraft);
        await expect(banner).not.toContainText(newsroomMessages.published);
        if (viewport.width < 800) await noSidewaysScroll(page);
      });
    }

    test("editors see how many stories wait for review, and its link lists them", async ({ page }) => {
      const viewport = VIEWPORTS.find(({ width }) => widthsOn(site).includes(width))!;
      await page.setViewportSize(viewport);
      await page.goto("/dashboard");
      await hydrated(page);
      const waiting = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select("id").where("status", "=", "review").execute(),
      );
      const notice = page.getByTestId("review-waiting");
      await expect(notice).toContainText(newsroomMessages.reviewWaitingCount);
      await expect(notice).toContainText(waiting.length.toLocaleString("ar-LB"));
      if (viewport.width < 800) await noSidewaysScroll(page);
      mkdirSync(".tmp/screens", { recursive: true });
      await notice.screenshot({ path: `.tmp/screens/review-waiting-${site.name}-${viewport.width}.png` });
      await notice.getByRole("link", { name: newsroomMessages.reviewWaitingLink }).click();
      await expect(page).toHaveURL(/\/dashboard\?status=review$/);
      const rows = page.getByTestId("news-row");
      await expect(rows.filter({ hasText: `${MARK} بانتظار المراجعة` })).toHaveCount(1);
      await expect(rows.getByTestId("row-status").filter({ hasNotText: newsroomMessages.statusReview })).toHaveCount(0);
    });

    test("the search folds Arabic spelling as readers' search does, drafts included", async ({ page }) => {
      await page.setViewportSize(VIEWPORTS.find(({ width }) => widthsOn(site).includes(width))!);
      await page.goto("/dashboard");
      await hydrated(page);
      const rows = page.getByTestId("news-row");
      for (const typed of ["المنيه", "الكوره", "اسعار"]) {
        const filters = page.getByTestId("dashboard-filters");
        await filters.getByRole("searchbox", { name: newsroomMessages.filterTitle }).fill(typed);
        await filters.getByRole("button", { name: newsroomMessages.filterApply }).click();
        await expect(page).toHaveURL(new RegExp(`/dashboard\\?q=${encodeURIComponent(typed)}`));
        await expect(rows.filter({ hasText: FOLDED_DRAFT })).toHaveCount(1);
        // The demo's published stories spelt المنية, الكورة and أسعار are there beside the draft.
        await expect(
          rows
            .filter({
              has: page.getByTestId("row-status").getByText(newsroomMessages.statusPublished, { exact: true }),
            })
            .first(),
        ).toBeVisible();
      }
    });
  });
}

test.describe("the mobile menu", () => {
  test("opens animated under 768 px and closes with Escape, giving the focus back to its button", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await hydrated(page);
    const toggle = page.getByTestId("mobile-menu-toggle");
    await toggle.click();
    const panel = page.getByTestId("mobile-menu");
    await expect(panel).toBeVisible();
    expect(await panel.evaluate((element) => getComputedStyle(element).animationName)).toBe("menu-open");
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test("does not animate for reduced motion, nor from 768 px", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await hydrated(page);
    await page.getByTestId("mobile-menu-toggle").click();
    const panel = page.getByTestId("mobile-menu");
    expect(await panel.evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.setViewportSize({ width: 780, height: 800 });
    expect(await panel.evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
  });
});

test.describe("reader pages at 375 px", () => {
  test("the breaking ticker shows its first headline whole, wrapped at its spaces", async ({ page }) => {
    await readSiteDatabase(DEMO_SITES[0]!, (db) =>
      createArticle(db, {
        title: "عاجل: اجتماع طارئ لمجلس الوزراء لبحث الأوضاع الاقتصادية والمعيشية في طرابلس والشمال",
        content: "نص",
        category: "breaking",
      }),
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(async () => {
      await page.goto("/");
      await expect(page.getByTestId("breaking-ticker")).toContainText("اجتماع طارئ لمجلس الوزراء");
    }).toPass();
    // Whatever headline the strip shows (a breaking item published meanwhile by another test may have
    // arrived live), it shows it whole: none is cut by the strip's edges.
    const fits = await page
      .getByTestId("breaking-ticker")
      .locator("ul")
      .evaluate((list) => {
        const strip = list.parentElement!.getBoundingClientRect();
        const shown = [...list.querySelectorAll("li a")]
          .map((link) => link.getBoundingClientRect())
          .filter((box) => box.right > strip.left + 1 && box.left < strip.right - 1);
        const whole = shown.every((box) => box.left >= strip.left - 1 && box.right <= strip.right + 1);
        return {
          whole,
          shown: shown.length,
          strip: [strip.left, strip.right],
          boxes: shown.map((box) => [box.left, box.right]),
          display: getComputedStyle(list).display,
        };
      });
    expect(fits.shown, JSON.stringify(fits)).toBeGreaterThan(0);
    expect(fits.whole, JSON.stringify(fits)).toBe(true);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: ".tmp/screens/ticker-375.png" });
  });

  test("an article's picks never repeat its related articles", async ({ page }) => {
    await page.goto("/local");
    await page.getByTestId("category-list").getByRole("article").first().getByRole("link").click();
    const related = await page
      .getByTestId("related-news")
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    const picks = await page
      .getByTestId("picks")
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(related.length).toBeGreaterThan(0);
    expect(picks.length).toBeGreaterThan(0);
    expect(picks.filter((href) => related.includes(href))).toEqual([]);
  });
});
