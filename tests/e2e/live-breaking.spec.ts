import { messages } from "../../app/lib/messages";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { DEMO_SITES, E2E_SERVERS } from "./servers";
import { articleIdByTitle, hydrated, fillBody } from "./support";
import { expect, test } from "./test";

for (const site of DEMO_SITES) {
  test.describe(`on ${site.engine}`, () => {
    test.use({ baseURL: site.url, signedInAs: { site, role: "admin", name: "مكتب العاجل", emailPrefix: "desk" } });

    test("a breaking item published in one page appears in another page's list and ticker without a reload, and goes when deleted", async ({
      browser,
      editorPage: editor,
    }) => {
      const readerContext = await browser.newContext({ baseURL: site.url });
      const reader = await readerContext.newPage();
      await reader.goto("/breaking");
      await hydrated(reader);
      const marker = await reader.evaluate(() => ((window as unknown as { marker: number }).marker = Math.random()));

      editor.on("dialog", (dialog) => void dialog.accept());

      const title = `عاجل: انقطاع المياه عن أحياء في الميناء ${Date.now()}`;
      await editor.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await fillBody(editor, "أعلنت مؤسسة المياه عن انقطاع مؤقت.");
      await editor.getByLabel(newsroomMessages.fieldCategory).selectOption("breaking");
      await editor.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(editor.getByRole("status")).toContainText(newsroomMessages.published);

      const list = reader.getByTestId("breaking-list");
      await expect(list.getByRole("listitem").first()).toContainText(title, { timeout: 3_000 });
      await expect(list.getByRole("listitem").first()).toHaveAttribute("data-fresh", "true");
      await expect(reader.getByTestId("breaking-ticker")).toContainText(title);
      expect(await reader.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker);

      const id = await articleIdByTitle(site, title);
      await editor.goto(`/news/${id}`);
      await hydrated(editor);
      await editor.getByTestId("admin-tools").getByRole("button", { name: messages.delete }).click();
      await expect(editor).toHaveURL(`${site.url}/`);
      await expect(list).not.toContainText(title, { timeout: 3_000 });
      await expect(reader.getByTestId("breaking-ticker")).not.toContainText(title);
      expect(await reader.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker);

      await readerContext.close();
    });
  });
}

test("the ticker is on every page, and hidden when there is no breaking news", async ({ page }) => {
  await page.goto("/who");
  await expect(page.getByTestId("breaking-ticker")).toBeVisible();
  await page.goto(`${E2E_SERVERS.empty.url}/who`);
  await expect(page.getByTestId("breaking-ticker")).toHaveCount(0);
});
