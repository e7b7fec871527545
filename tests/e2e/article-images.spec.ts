import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { imageDetailMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { pngBytes } from "../../harness/fixtures";
import { DEMO_SITES, FILES_DIR } from "./servers";
import { articleIdByTitle, fillBody, hydrated, readSiteDatabase, watchConsole } from "./support";
import { expect, test } from "./test";

// An article's images (decision 025): an editor uploads two images, makes the second the
// cover and describes it; a reader sees it first, with its caption and credit, at 375 and 1280 px.
const SHOTS = path.resolve(".tmp/article-images");
/** International: no other spec counts its articles (public-site counts /local). */
const CATEGORY = "international";

const stem = (url: string) => path.basename(url).replace(/\.webp$/, "");

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(clientWidth!);
}

for (const site of DEMO_SITES) {
  test.describe(`an article's images on ${site.engine}`, () => {
    test.use({
      baseURL: site.url,
      signedInAs: { site, role: "editor", name: "ريم محررة الصور", emailPrefix: "article-images" },
      navigationTimeout: 15_000,
      actionTimeout: 15_000,
    });

    test.beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(path.join(FILES_DIR, "harbour-first.png"), await pngBytes(1200, 675, "#e76f51"));
      writeFileSync(path.join(FILES_DIR, "market-second.png"), await pngBytes(1200, 800, "#2a9d8f"));
    });

    test("an editor uploads two images, makes the second the cover with its alt, caption and credit; a reader sees it first at 375 and 1280 px", async ({
      editorPage: page,
    }) => {
      test.setTimeout(90_000);
      const noConsoleErrors = watchConsole(page);
      page.on("dialog", (dialog) => void dialog.accept());
      const title = `خبر بصورتين ${site.engine} ${Date.now()}`;
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await fillBody(page, "افتتح السوق الجديد أبوابه صباح اليوم.");
      await page.getByLabel(newsroomMessages.fieldCategory).selectOption(CATEGORY);
      await page
        .locator("#images")
        .setInputFiles([path.join(FILES_DIR, "harbour-first.png"), path.join(FILES_DIR, "market-second.png")]);
      await page.getByLabel(new RegExp(newsroomMessages.statusPublishNow)).check();
      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page.getByRole("status")).toContainText(newsroomMessages.published);
      const id = await articleIdByTitle(site, title);
      const uploaded = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select("images").where("id", "=", id).executeTakeFirstOrThrow(),
      );
      const [first, second] = JSON.parse(uploaded.images) as [string, string];
      expect(stem(first)).toContain("harbour-first");

      await page.goto(`/edit-news/${id}`);
      await hydrated(page);
      const field = page.getByTestId("article-images-field");
      const rows = field.locator("ol > li");
      await expect(rows).toHaveCount(2);
      // Written before the moves: the text travels with its image.
      await field.locator("#image-1-alt").fill("بسطات الخضار في السوق الجديد");
      await expect(rows.first().getByRole("button", { name: imageDetailMessages.makeCover })).toBeDisabled();
      await rows.nth(1).getByRole("button", { name: imageDetailMessages.makeCover }).click();
      await expect(rows.first()).toHaveAttribute("data-image", second);
      await expect(rows.first()).toContainText(imageDetailMessages.cover);
      // The keyboard stays on the moved image, and the move is announced.
      await expect(rows.first().locator("button:focus")).toHaveCount(1);
      await expect(field.locator("[aria-live]")).toContainText(imageDetailMessages.moved);
      // Down, then up again: buttons alone reorder.
      await rows
        .first()
        .getByRole("button", { name: new RegExp(imageDetailMessages.moveDown) })
        .click();
      await expect(rows.first()).toHaveAttribute("data-image", first);
      await rows
        .nth(1)
        .getByRole("button", { name: new RegExp(imageDetailMessages.moveUp) })
        .click();
      await expect(rows.first()).toHaveAttribute("data-image", second);
      await field.locator("#image-0-caption").fill("السوق الجديد في يوم افتتاحه");
      await field.locator("#image-0-credit").fill("عدسة ريم");
      await expect(field.locator("#image-0-alt")).toHaveValue("بسطات الخضار في السوق الجديد");
      await expect(field.locator("#image-0-caption")).toHaveValue("السوق الجديد في يوم افتتاحه");
      await page.screenshot({ path: path.join(SHOTS, `form-${site.engine}-1280.png`), fullPage: true });
      await page.setViewportSize({ width: 375, height: 900 });
      await field.screenshot({ path: path.join(SHOTS, `form-${site.engine}-375.png`) });
      await noSidewaysScroll(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/edit-news/"));

      const saved = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select(["images", "image_details"]).where("id", "=", id).executeTakeFirstOrThrow(),
      );
      expect(JSON.parse(saved.images)).toEqual([second, first]);
      expect(JSON.parse(saved.image_details!)).toEqual({
        [second]: { alt: "بسطات الخضار في السوق الجديد", caption: "السوق الجديد في يوم افتتاحه", credit: "عدسة ريم" },
      });
      noConsoleErrors();

      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/news/${id}`, { waitUntil: "load" });
        const gallery = page.getByTestId("article-images");
        const cover = gallery.locator("figure").first();
        await expect(cover.locator("img")).toHaveAttribute("src", new RegExp(stem(second).replace(/-\d+w$/, "")));
        await expect(cover.locator("img")).toHaveAttribute("alt", "بسطات الخضار في السوق الجديد");
        await expect(cover.locator("figcaption")).toContainText("السوق الجديد في يوم افتتاحه");
        await expect(cover.locator("figcaption .credit")).toContainText("عدسة ريم");
        await expect(gallery.locator("figure").nth(1).locator("figcaption")).toHaveCount(0);
        expect(await cover.locator("figcaption").evaluate((caption) => getComputedStyle(caption).direction)).toBe(
          "rtl",
        );
        const image = cover.locator("img");
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        // The box is 16:9 and the picture covers it (object-fit), never stretched.
        expect(await image.evaluate((img) => getComputedStyle(img).objectFit)).toBe("cover");
        await noSidewaysScroll(page);
        await page.screenshot({ path: path.join(SHOTS, `article-${site.engine}-${width}.png`), fullPage: false });
      }
      await page.goto(`/${CATEGORY}`);
      const card = page.locator(`a[href^="/news/${id}/"]`).first();
      await expect(card.locator("img")).toHaveAttribute("src", new RegExp(stem(second).replace(/-\d+w$/, "")));
      await expect(card.locator("img")).toHaveAttribute("alt", "");
    });
  });
}
