import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { demoSettings } from "../../app/server/demo/demo-settings";
import { DEMO_SITES, widthsOn } from "./servers";
import { articleIdByTitle, hydrated, watchConsole, fillBody, bodyEditor } from "./support";
import { expect, test } from "./test";

const SHOTS = path.resolve(".tmp/undo-shots");

for (const site of DEMO_SITES) {
  for (const width of widthsOn(site)) {
    test.describe(`undo on ${site.engine} at ${width} px`, () => {
      test.use({
        baseURL: site.url,
        signedInAs: { site, role: "admin", name: "محررة التراجع", emailPrefix: `undo-${width}` },
        viewport: { width, height: 900 },
      });
      test.describe.configure({ mode: "serial" });

      test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

      /** Answers every alert and confirm with `accept`, remembering what each said. */
      function answerDialogs(page: Page, accept = true): string[] {
        const said: string[] = [];
        page.on("dialog", (dialog) => {
          said.push(dialog.message());
          void (accept ? dialog.accept() : dialog.dismiss());
        });
        return said;
      }

      async function noSidewaysScroll(page: Page) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
          0,
        );
      }

      async function shot(page: Page, name: string) {
        await noSidewaysScroll(page);
        await page.screenshot({ path: path.join(SHOTS, `${site.name}-${width}-${name}.png`), fullPage: true });
      }

      async function publish(page: Page, title: string, content: string) {
        await page.goto("/dashboard");
        await hydrated(page);
        await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
        await fillBody(page, content);
        await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
        await expect(page.getByRole("status").filter({ hasText: newsroomMessages.published })).toBeVisible();
        return articleIdByTitle(site, title);
      }

      async function openEdit(page: Page, id: string) {
        await page.goto(`/edit-news/${id}`);
        await hydrated(page);
      }

      test("an edit is reverted from the history", async ({ page }) => {
        const consoleClean = watchConsole(page);
        answerDialogs(page);
        const title = `خبر المرفأ ${width} ${Date.now()}`;
        const id = await publish(page, title, "النص الصحيح كما نُشر أول مرة.");
        await openEdit(page, id);
        await fillBody(page, "نص فيه خطأ فادح.");
        await page.getByRole("button", { name: newsroomMessages.saveSubmit }).click();
        await expect(page.getByTestId("article-content")).toHaveText("نص فيه خطأ فادح.");

        await openEdit(page, id);
        const revision = page.getByTestId("revision").first();
        await expect(revision).toContainText(title);
        await expect(revision).toContainText("محررة التراجع");
        await shot(page, "edit-history");
        await revision.getByRole("link", { name: newsroomMessages.viewRevision }).click();
        await expect(page.getByTestId("article-content")).toHaveText("النص الصحيح كما نُشر أول مرة.");
        await hydrated(page);
        await shot(page, "revision");
        await page.getByTestId("restore-full").getByRole("button").click();
        await expect(page.getByRole("status").filter({ hasText: newsroomMessages.revisionRestored })).toBeVisible();
        await expect(bodyEditor(page)).toHaveText("النص الصحيح كما نُشر أول مرة.");
        await expect(page.getByTestId("revision")).toHaveCount(2);
        await page.goto(`/news/${id}`);
        await expect(page.getByTestId("article-content")).toHaveText("النص الصحيح كما نُشر أول مرة.");
        consoleClean();
      });

      test("an article is deleted and restored from the trash", async ({ page }) => {
        answerDialogs(page);
        const title = `خبر سيُحذف ثم يعود ${width} ${Date.now()}`;
        const id = await publish(page, title, "نص الخبر الذي سيُحذف.");
        await page.goto(`/news/${id}`);
        await hydrated(page);
        await page.getByTestId("admin-tools").getByRole("button", { name: messages.delete }).click();
        await expect(page).toHaveURL(/\/$/);
        expect((await page.request.get(`/news/${id}`, { headers: { cookie: "" } })).status()).toBe(404);

        await page.goto("/dashboard");
        await page.getByRole("link", { name: newsroomMessages.trashTitle }).click();
        const item = page.getByTestId("trash-item").filter({ hasText: title });
        await expect(item).toContainText(newsroomMessages.statusPublished);
        await hydrated(page);
        await shot(page, "trash");
        await item.getByRole("button", { name: newsroomMessages.restoreFromTrash }).click();
        await expect(page.getByRole("status").filter({ hasText: newsroomMessages.restoredFromTrash })).toBeVisible();
        await expect(page.getByTestId("trash-item").filter({ hasText: title })).toHaveCount(0);
        const anonymous = await page.context().browser()!.newContext({ baseURL: site.url });
        const reader = await anonymous.newPage();
        await reader.goto(`/news/${id}`);
        await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
        await anonymous.close();
      });

      test("autosave keeps a new article as a draft and a draft's changes, through a reload", async ({
        editorPage: page,
      }) => {
        answerDialogs(page);
        const title = `مسودة تحفظ وحدها ${width} ${Date.now()}`;
        await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
        await fillBody(page, "السطر الأول من المسودة.");
        await expect(page.getByTestId("autosave-status")).toContainText(newsroomMessages.autosaved, {
          timeout: 15_000,
        });
        await shot(page, "autosaved-new");
        await page.reload();
        await expect(page.getByTestId("news-row").filter({ hasText: title })).toContainText(
          newsroomMessages.statusDraft,
        );
        const id = await articleIdByTitle(site, title);

        await openEdit(page, id);
        await expect(bodyEditor(page)).toHaveText("السطر الأول من المسودة.");
        await fillBody(page, "السطر الأول من المسودة.\nوسطر ثانٍ كُتب بعدها.");
        await expect(page.getByTestId("autosave-status")).toContainText(newsroomMessages.autosaved, {
          timeout: 15_000,
        });
        await page.reload();
        await expect(bodyEditor(page).locator("p")).toHaveText(["السطر الأول من المسودة.", "وسطر ثانٍ كُتب بعدها."]);
        expect((await page.request.get(`/news/${id}`, { headers: { cookie: "" } })).status()).toBe(404);
      });

      test("leaving with unsaved changes asks first, and preview shows the unsaved text without publishing it", async ({
        page,
        context,
      }) => {
        const id = await (async () => {
          answerDialogs(page);
          return publish(page, `خبر منشور يُعدّل ${width} ${Date.now()}`, "النص المنشور.");
        })();
        page.removeAllListeners("dialog");
        const said = answerDialogs(page, false);
        await openEdit(page, id);
        await expect(page.getByTestId("autosave-status")).toHaveText(newsroomMessages.autosaveOffPublished);
        await fillBody(page, "نص جديد لم يُحفظ بعد.");

        const [preview] = await Promise.all([
          context.waitForEvent("page"),
          page.getByRole("button", { name: newsroomMessages.preview }).click(),
        ]);
        await expect(preview.getByTestId("preview-banner")).toHaveText(newsroomMessages.previewBanner);
        await expect(preview.getByTestId("article-content")).toHaveText("نص جديد لم يُحفظ بعد.");
        await noSidewaysScroll(preview);
        await preview.screenshot({ path: path.join(SHOTS, `${site.name}-${width}-preview.png`), fullPage: true });
        await preview.close();

        await page.getByRole("link", { name: demoSettings.name }).first().click();
        await expect.poll(() => said).toContain(newsroomMessages.unsavedChangesWarning);
        await expect(page).toHaveURL(new RegExp(`/edit-news/${id}$`));
        await expect(bodyEditor(page)).toHaveText("نص جديد لم يُحفظ بعد.");
        const reader = await page.request.get(`/news/${id}`, { headers: { cookie: "" } });
        expect(await reader.text()).toContain("النص المنشور.");
      });
    });
  }
}
