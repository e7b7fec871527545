import { messages } from "../../app/lib/messages";
import { DEMO_SITES } from "./servers";
import { hydrated, watchConsole } from "./support";
import { expect, test } from "./test";

for (const site of DEMO_SITES) {
  test.describe(`search on ${site.engine}`, () => {
    test.use({ baseURL: site.url });

    test("from the mobile menu, a query typed without hamza and ال finds the article, words marked", async ({
      page,
    }) => {
      const noConsoleErrors = watchConsole(page);
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto("/");
      await hydrated(page);
      await page.getByTestId("mobile-menu-toggle").click();
      const box = page.getByTestId("mobile-menu").getByRole("searchbox", { name: messages.search });
      await box.fill("اقفال مدارس");
      await box.press("Enter");
      await expect(page).toHaveURL(/\/search\?query=/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${messages.searchResultsFor} «اقفال مدارس»`);
      const first = page.getByTestId("search-results").getByRole("listitem").first();
      await expect(first.getByRole("heading")).toHaveText("وزارة التربية تعلن إقفال المدارس غدًا بسبب الأحوال الجوية");
      await expect(first.getByRole("heading").locator("mark")).toHaveText(["إقفال", "المدارس"]);
      await expect(first.getByTestId("search-snippet").locator("mark").first()).toBeVisible();
      await expect(page.getByTestId("mobile-menu")).toBeHidden();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await first.getByRole("link").click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "وزارة التربية تعلن إقفال المدارس غدًا بسبب الأحوال الجوية",
      );
      noConsoleErrors();
    });

    test("from the navbar, with hamza dropped and a clitic added", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const box = page.getByRole("banner").getByRole("searchbox", { name: messages.search });
      await box.fill("والمرفا");
      await box.press("Enter");
      const results = page.getByTestId("search-results").getByRole("listitem");
      await expect(results.first().getByRole("heading")).toContainText("مرفأ طرابلس");
      await expect(results.first().getByRole("heading").locator("mark")).toHaveText("مرفأ");
    });

    test("pages with plain links that work without JavaScript, and says when nothing matches", async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${site.url}/search?query=${encodeURIComponent("في")}`);
      await expect(page.getByTestId("search-results").getByRole("listitem")).toHaveCount(10);
      await page.getByRole("link", { name: messages.nextPage }).click();
      await expect(page).toHaveURL(/page=2$/);
      await expect(page.getByTestId("search-results").getByRole("listitem").first()).toBeVisible();
      await expect(page.getByRole("link", { name: messages.previousPage })).toBeVisible();

      await page.goto(`${site.url}/search?query=${encodeURIComponent('زلزال NEAR( "*')}`);
      await expect(page.getByText(messages.noResults)).toBeVisible();
      await context.close();
    });
  });
}
