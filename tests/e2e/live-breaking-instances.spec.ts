import { messages } from "../../app/lib/messages";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { contextWithSession, hydrated, fillBody } from "./support";
import { expect, test } from "./test";

/** As the demo sites: SQLite always, PostgreSQL when npm test runs its pass. */
const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];

for (const engine of ENGINES) {
  test.describe(`two instances on one ${engine} database`, () => {
    let site: TestSite;
    let a: TestServer;
    let b: TestServer;
    let db: DB;
    let cookie = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      site = await startTestSite(2, {}, engine);
      [a, b] = site.servers as [TestServer, TestServer];
      db = openDatabase(site.database.url, 1);
      cookie = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب العاجل", role: "admin" });
    });
    test.afterAll(async () => {
      await db?.destroy();
      await site?.stop();
    });

    test("a breaking item published on instance A appears in a page served by B without a reload, and goes when deleted on A", async ({
      browser,
    }) => {
      const readerContext = await browser.newContext();
      const reader = await readerContext.newPage();
      await reader.goto(`${b.url}/breaking`);
      await hydrated(reader);
      const marker = await reader.evaluate(() => ((window as unknown as { marker: number }).marker = Math.random()));

      const editorContext = await contextWithSession(browser, a.url, cookie);
      const editor = await editorContext.newPage();
      editor.on("dialog", (dialog) => void dialog.accept());
      await editor.goto(`${a.url}/dashboard`);
      await hydrated(editor);

      const title = `عاجل: عبر خادمين ${Date.now()}`;
      await editor.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await fillBody(editor, "نُشر على الخادم الأول وقُرئ على الثاني.");
      await editor.getByLabel(newsroomMessages.fieldCategory).selectOption("breaking");
      await editor.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(editor.getByRole("status")).toContainText(newsroomMessages.published);

      const list = reader.getByTestId("breaking-list");
      await expect(list.getByRole("listitem").first()).toContainText(title, { timeout: 3_000 });
      await expect(reader.getByTestId("breaking-ticker")).toContainText(title);

      const { id } = await db.selectFrom("news").select("id").where("title", "=", title).executeTakeFirstOrThrow();
      await editor.goto(`${a.url}/news/${id}`);
      await hydrated(editor);
      await editor.getByTestId("admin-tools").getByRole("button", { name: messages.delete }).click();
      await expect(editor).toHaveURL(`${a.url}/`);
      // The only item: the list and the ticker go with it.
      await expect(reader.getByText(title)).toHaveCount(0, { timeout: 3_000 });
      expect(await reader.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker);

      await readerContext.close();
      await editorContext.close();
    });
  });
}
