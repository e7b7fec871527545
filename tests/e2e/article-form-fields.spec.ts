import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ARTICLE_FORM_FIELDS } from "../../app/lib/article-form-fields";
import { categoryLabel } from "../../app/lib/categories";
import {
  conflictMessages,
  imageDetailMessages,
  newsroomMessages,
  storyMessages,
  topicMessages,
} from "../../app/lib/newsroom-messages";
import { demoSettings } from "../../app/server/demo/demo-settings";
import { pngBytes } from "../../harness/fixtures";
import { DEMO_SITES, widthsOn } from "./servers";
import { articleIdByTitle, bodyEditor, fillBody, hydrated } from "./support";
import { expect, test } from "./test";

/*
 * The article form's one list of fields (lib/article-form-fields.ts): whatever a draft holds survives
 * autosave and leaving; what waits for the submit still warns; the preview shows what the page shows.
 */

const SHOTS = path.resolve(".tmp/article-form-fields");

for (const site of DEMO_SITES) {
  for (const width of widthsOn(site)) {
    test.describe(`the article form's fields on ${site.engine} at ${width} px`, () => {
      test.use({
        baseURL: site.url,
        signedInAs: { site, role: "admin", name: "محررة الحقول", emailPrefix: `form-fields-${width}` },
        viewport: { width, height: 900 },
      });
      test.describe.configure({ mode: "serial" });

      test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

      /** Dismisses every confirm (the leave-warning), remembering what each said. */
      function refuseDialogs(page: Page): string[] {
        const said: string[] = [];
        page.on("dialog", (dialog) => {
          said.push(dialog.message());
          void dialog.dismiss();
        });
        return said;
      }

      /** The next autosave whose request carries `text`, answered. */
      function autosaveOf(page: Page, text: string) {
        return page.waitForResponse(
          (response) =>
            response.url().endsWith("/api/news/autosave") &&
            (response.request().postDataBuffer()?.includes(Buffer.from(text)) ?? false),
        );
      }

      const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

      async function addTopic(page: Page, name: string) {
        const combobox = page.getByRole("combobox", { name: topicMessages.inputLabel });
        await combobox.fill(name);
        await expect(page.getByRole("option", { name: `${topicMessages.newTopic}: «${name}»` })).toBeVisible();
        await combobox.press("Enter");
        await expect(page.getByTestId("topic-chip")).toHaveText([new RegExp(name)]);
      }

      test("every field a draft holds survives an autosave and leaving the form; the submit's choices still warn", async ({
        editorPage: page,
      }) => {
        const said = refuseDialogs(page);
        const title = `خبر بكل حقوله ${width} ${Date.now()}`;
        const topic = `موضوع الحقول ${width} ${site.engine}`;
        // Every field the form posts is on the one list.
        const names = await page
          .getByTestId("article-form")
          .locator("[name]")
          .evaluateAll((elements) => elements.map((element) => element.getAttribute("name")));
        expect(names.filter((name) => !name || !(name in ARTICLE_FORM_FIELDS))).toEqual([]);

        await field(page, newsroomMessages.fieldTitle).fill(title);
        await fillBody(page, "نص الخبر الذي يحفظ وحده.");
        await field(page, storyMessages.standfirst).fill("موجز كتب قبل الحفظ التلقائي");
        await field(page, newsroomMessages.fieldByline).fill("مراسلنا في عكار");
        await page.getByLabel(newsroomMessages.fieldCategory).selectOption("sports");
        await addTopic(page, topic);
        await field(page, newsroomMessages.fieldVideoUrl).fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
        await page.getByText(storyMessages.shareGroup).click();
        await field(page, storyMessages.slug).fill("kull-al-huqul");
        await field(page, storyMessages.shareTitle).fill("عنوان للمشاركة");
        await page.getByLabel(storyMessages.noindex).check();
        const saved = autosaveOf(page, "وصف للمشاركة كتب أخيراً");
        await field(page, storyMessages.shareDescription).fill("وصف للمشاركة كتب أخيراً");
        expect((await saved).ok()).toBe(true);
        await expect(page.getByTestId("autosave-status")).toHaveAttribute("data-phase", "saved");

        // Nothing is left unsaved: leaving asks nothing.
        await page.getByRole("link", { name: demoSettings.name }).first().click();
        await expect(page).toHaveURL(/\/$/);
        expect(said).toEqual([]);

        const id = await articleIdByTitle(site, title);
        await page.goto(`/edit-news/${id}`);
        await hydrated(page);
        await expect(field(page, newsroomMessages.fieldTitle)).toHaveValue(title);
        await expect(bodyEditor(page)).toHaveText("نص الخبر الذي يحفظ وحده.");
        await expect(field(page, storyMessages.standfirst)).toHaveValue("موجز كتب قبل الحفظ التلقائي");
        await expect(field(page, newsroomMessages.fieldByline)).toHaveValue("مراسلنا في عكار");
        await expect(page.getByLabel(newsroomMessages.fieldCategory)).toHaveValue("sports");
        await expect(page.getByTestId("topic-chip")).toHaveText([new RegExp(topic)]);
        await expect(field(page, newsroomMessages.fieldVideoUrl)).toHaveValue(
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        );
        await expect(field(page, storyMessages.slug)).toHaveValue("kull-al-huqul");
        await expect(field(page, storyMessages.shareTitle)).toHaveValue("عنوان للمشاركة");
        await expect(field(page, storyMessages.shareDescription)).toHaveValue("وصف للمشاركة كتب أخيراً");
        await expect(page.getByLabel(storyMessages.noindex)).toBeChecked();
        await page.screenshot({ path: path.join(SHOTS, `${site.name}-${width}-reopened.png`), fullPage: true });

        // A choice only the submit stores (publishing now) is not autosaved: leaving warns, and the form stays.
        await page.getByLabel(new RegExp(newsroomMessages.statusPublishNow)).check();
        await page.getByRole("link", { name: demoSettings.name }).first().click();
        await expect.poll(() => said).toEqual([newsroomMessages.unsavedChangesWarning]);
        await expect(page).toHaveURL(new RegExp(`/edit-news/${id}$`));
      });

      test("an image's alt text, caption and credit typed into a draft survive an autosave and a reload", async ({
        editorPage: page,
      }) => {
        const said = refuseDialogs(page);
        const title = `مسودة بصورة ${width} ${Date.now()}`;
        await field(page, newsroomMessages.fieldTitle).fill(title);
        await fillBody(page, "نص المسودة ذات الصورة.");
        await page
          .locator("#images")
          .setInputFiles({ name: "harbour.png", mimeType: "image/png", buffer: await pngBytes() });
        await page.getByLabel(new RegExp(newsroomMessages.statusSaveDraft)).check();
        await page.getByRole("button", { name: conflictMessages.submitDraft }).click();
        await expect(page).toHaveURL(/saved=/);
        const id = await articleIdByTitle(site, title);

        await page.goto(`/edit-news/${id}`);
        await hydrated(page);
        const images = page.getByTestId("article-images-field");
        await images.getByLabel(imageDetailMessages.alt).fill("رافعات المرفأ عند الفجر");
        await images.getByLabel(imageDetailMessages.caption).fill("مرفأ طرابلس صباح اليوم");
        const saved = autosaveOf(page, "تصوير مراسلنا");
        await images.getByLabel(imageDetailMessages.credit).fill("تصوير مراسلنا");
        expect((await saved).ok()).toBe(true);
        // The form counts as saved once it has read the answer, not when the answer arrives.
        await expect(page.getByTestId("autosave-status")).toHaveAttribute("data-phase", "saved");
        await page.reload();
        await hydrated(page);
        expect(said).toEqual([]);
        await expect(images.getByLabel(imageDetailMessages.alt)).toHaveValue("رافعات المرفأ عند الفجر");
        await expect(images.getByLabel(imageDetailMessages.caption)).toHaveValue("مرفأ طرابلس صباح اليوم");
        await expect(images.getByLabel(imageDetailMessages.credit)).toHaveValue("تصوير مراسلنا");
      });

      test("the preview shows what the article page shows: category, title, standfirst, byline, video, text and topics", async ({
        editorPage: page,
        context,
      }) => {
        refuseDialogs(page);
        const topic = `موضوع المعاينة ${width} ${site.engine}`;
        await field(page, newsroomMessages.fieldTitle).fill(`خبر للمعاينة ${width}`);
        await field(page, storyMessages.standfirst).fill("موجز يظهر في المعاينة");
        await fillBody(page, "نص لم يحفظ بعد.");
        await field(page, newsroomMessages.fieldByline).fill("وكالات");
        await page.getByLabel(newsroomMessages.fieldCategory).selectOption("international");
        await addTopic(page, topic);
        await field(page, newsroomMessages.fieldVideoUrl).fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");

        const [preview] = await Promise.all([
          context.waitForEvent("page"),
          page.getByRole("button", { name: newsroomMessages.preview, exact: true }).click(),
        ]);
        await expect(preview.getByTestId("preview-banner")).toHaveText(newsroomMessages.previewBanner);
        await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`خبر للمعاينة ${width}`);
        await expect(preview.getByTestId("standfirst")).toHaveText("موجز يظهر في المعاينة");
        await expect(preview.getByTestId("byline")).toContainText("وكالات");
        await expect(preview.getByRole("article").getByText(categoryLabel("international"))).toBeVisible();
        await expect(preview.getByTestId("article-video")).toBeVisible();
        await expect(preview.getByTestId("article-content")).toHaveText("نص لم يحفظ بعد.");
        await expect(preview.getByTestId("article-topics")).toContainText(topic);
        expect(
          await preview.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        await preview.screenshot({ path: path.join(SHOTS, `${site.name}-${width}-preview.png`), fullPage: true });
      });
    });
  }
}
