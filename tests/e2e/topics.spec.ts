import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { conflictMessages, newsroomMessages, topicMessages } from "../../app/lib/newsroom-messages";
import { wirePath } from "../../app/lib/news";
import { topicFeedPath, topicPath, topicSlug } from "../../app/lib/topics";
import { createArticle } from "../../app/server/news/articles-write.server";
import { DEMO_SITES } from "./servers";
import { articleIdByTitle, fillBody, hydrated, readSiteDatabase, watchConsole } from "./support";
import { expect, test } from "./test";

/** Screenshots to look at (never committed): the form's topic field, the topic page and the article's links, at 375 and 1280 px. */
const SHOTS = path.resolve(".tmp/topics");
const WIDTHS = [375, 1280] as const;

for (const site of DEMO_SITES) {
  test.describe(`topics on ${site.engine}`, () => {
    test.use({
      baseURL: site.url,
      signedInAs: { site, role: "admin", name: "محررة المواضيع", emailPrefix: "topics-editor" },
    });
    test.describe.configure({ mode: "serial" });

    test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

    /** `target`: an element to shoot, or one to bring into view and shoot the window around (a list that opens past its box). */
    async function shoot(page: Page, name: string, target?: ReturnType<Page["getByTestId"]>, around = false) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const file = path.join(SHOTS, `${name}-${site.engine}-${width}.png`);
        if (target && around) {
          await target.evaluate((element) => element.scrollIntoView({ block: "center" }));
          await page.screenshot({ path: file });
        } else if (target) await target.screenshot({ path: file });
        else await page.screenshot({ path: file, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    test("an editor tags a story with an existing topic found by another spelling and a new one, then reads the topic pages and feed", async ({
      editorPage: page,
      browser,
    }) => {
      const consoleClean = watchConsole(page);
      page.on("dialog", (dialog) => void dialog.accept());
      const title = `افتتاح سوق الخضار الجديد في المنية ${site.engine}`;
      const newTopic = `سوق الخضار ${site.engine === "postgres" ? "الشمالي" : "الجديد"}`;
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await fillBody(page, "افتتح اليوم سوق الخضار الجديد عند مدخل المنية بحضور فعاليات البلدة.");
      await page.getByLabel(newsroomMessages.fieldCategory).selectOption("local");

      // The demo's topic المنية, typed as readers often write it.
      const field = page.getByRole("combobox", { name: topicMessages.inputLabel });
      await field.fill("المنيه");
      const existing = page.getByRole("option", { name: "المنية", exact: true });
      await expect(existing).toBeVisible();
      await existing.click();
      await expect(page.getByTestId("topic-chip")).toHaveText([/المنية/]);
      await field.fill(newTopic);
      const created = page.getByRole("option", { name: `${topicMessages.newTopic}: «${newTopic}»` });
      await expect(created).toBeVisible();
      // A name typed and left while the draft is saved, then cleared: it is no topic of the story. The chip
      // added is what changes the draft, so the save is awaited from the moment it is added.
      const draftSave = page.waitForRequest((request) => request.url().endsWith("/api/news/autosave"));
      await field.press("Enter");
      await expect(page.getByTestId("topic-chip")).toHaveText([/المنية/, new RegExp(newTopic)]);
      await field.fill("عكا");
      await expect(page.getByRole("option", { name: "عكار", exact: true })).toBeVisible();
      await shoot(page, "topic-field", page.getByTestId("topic-field"), true);
      await (await draftSave).response();
      await expect(page.getByTestId("autosave-status")).toHaveAttribute("data-phase", "saved");
      await field.fill("");

      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page.getByRole("status")).toContainText(newsroomMessages.published);
      const id = await articleIdByTitle(site, title);

      // The article's links, read as a reader.
      const reader = await browser.newPage({ baseURL: site.url, storageState: { cookies: [], origins: [] } });
      await reader.goto(`/news/${id}`);
      const links = reader.getByTestId("article-topics");
      await expect(links.getByRole("link")).toHaveText(["المنية", newTopic]);
      await shoot(reader, "article-topics", links);

      // The new topic's page: Arabic in the address bar, the story listed.
      await links.getByRole("link", { name: newTopic }).click();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(newTopic);
      expect(decodeURIComponent(new URL(reader.url()).pathname)).toBe(`/topic/${topicSlug(newTopic)}`);
      expect(new URL(reader.url()).pathname).toBe(wirePath(topicPath(topicSlug(newTopic))));
      await expect(reader.getByTestId("category-list").getByRole("article")).toHaveCount(1);
      await expect(reader.getByTestId("category-list")).toContainText(title);

      // The existing topic's page: the new story first, the demo's stories after it, more on 'المزيد'.
      await reader.goto(`/news/${id}`);
      await reader.getByTestId("article-topics").getByRole("link", { name: "المنية" }).click();
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText("المنية");
      const cards = reader.getByTestId("category-list").getByRole("article");
      await expect(cards.first()).toContainText(title);
      expect(await cards.count()).toBeGreaterThan(1);
      await shoot(reader, "topic-page");
      await hydrated(reader);
      await reader.getByRole("link", { name: messages.more }).click();
      await expect.poll(() => cards.count()).toBeGreaterThan(6);

      // Its feed.
      const feed = await reader.request.get(topicFeedPath("المنية"));
      expect(feed.status()).toBe(200);
      expect(feed.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
      const xml = await feed.text();
      expect(xml).toContain(`<title>${title}</title>`);
      expect(xml).toContain(`${site.url}/news/${id}`);
      const newFeed = await reader.request.get(topicFeedPath(topicSlug(newTopic)));
      expect(await newFeed.text()).toContain(`<title>${title}</title>`);
      await reader.close();

      // The admins' screen lists both topics with their counts.
      await page.goto("/dashboard/topics");
      await expect(page.getByRole("heading", { level: 1, name: topicMessages.dashboardTitle })).toBeVisible();
      const row = page
        .getByTestId("topic-row")
        .filter({ has: page.getByRole("link", { name: newTopic, exact: true }) });
      await expect(row.getByTestId("topic-count")).toContainText("١");
      await shoot(page, "dashboard-topics");
      consoleClean();
    });

    test.describe("an author", () => {
      test.use({ signedInAs: { site, role: "author", name: "كاتب المواضيع", emailPrefix: "topics-author" } });
      test("may pick existing topics only: a new name is refused beside the field, nothing saved", async ({
        editorPage: page,
      }) => {
        page.on("dialog", (dialog) => void dialog.accept());
        await expect(page.getByText(topicMessages.fieldHintAuthor)).toBeVisible();
        const title = `مسودة كاتب عن بلدة لم تذكر ${site.engine}`;
        await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
        await fillBody(page, "نص المسودة.");
        const field = page.getByRole("combobox", { name: topicMessages.inputLabel });
        await field.fill("طرابل");
        await expect(page.getByRole("option", { name: "طرابلس", exact: true })).toBeVisible();
        await field.press("Enter");
        await field.fill("بلدة لم تذكر");
        // Existing topics only: no choice makes a new one.
        await expect(page.getByRole("option", { name: new RegExp(topicMessages.newTopic) })).toHaveCount(0);
        await page.getByRole("button", { name: conflictMessages.submitDraft }).click();
        await expect(page.locator("#topics-error")).toHaveText(`${topicMessages.unknownForAuthor} بلدة لم تذكر`);
        await expect(page.getByRole("status")).toHaveCount(0);
        // Autosave may have kept a draft of the text before the unknown name was typed; no topic was made.
        expect(
          await readSiteDatabase(site, (db) =>
            db.selectFrom("topics").select("id").where("name", "=", "بلدة لم تذكر").execute(),
          ),
        ).toEqual([]);
      });
    });

    test("an admin creates a topic with a description, changes it, and deletes the topic after confirming", async ({
      page,
      request,
    }) => {
      const consoleClean = watchConsole(page);
      const name = "ميناء الصيادين";
      await page.goto("/dashboard/topics");
      await hydrated(page);
      const create = page.getByTestId("topic-create");
      await create.getByLabel(topicMessages.createName).fill(name);
      await create.getByLabel(topicMessages.description).fill("أخبار الصيادين ومرفئهم في الميناء.");
      await create.getByRole("button", { name: topicMessages.create }).click();
      await expect(page.getByText(topicMessages.created)).toBeVisible();
      const row = page.getByTestId("topic-row").filter({ has: page.getByRole("link", { name, exact: true }) });
      await expect(row.getByLabel(topicMessages.description)).toHaveValue("أخبار الصيادين ومرفئهم في الميناء.");
      // Public once a published story carries it, with its description under its name.
      expect((await request.get(wirePath(topicPath(topicSlug(name))))).status()).toBe(404);
      await readSiteDatabase(site, (db) =>
        createArticle(db, {
          title: "موسم صيد جديد في الميناء",
          content: "نص",
          category: "local",
          topics: { names: [name], mayCreate: false },
        }),
      );
      await page.goto(wirePath(topicPath(topicSlug(name))));
      await expect(page.getByTestId("topic-description")).toHaveText("أخبار الصيادين ومرفئهم في الميناء.");

      await page.goto("/dashboard/topics");
      await hydrated(page);
      await row.getByLabel(topicMessages.description).fill("كل ما يخص ميناء الصيادين.");
      await row.getByRole("button", { name: topicMessages.describe }).click();
      await expect(page.getByText(topicMessages.described)).toBeVisible();
      await expect(row.getByLabel(topicMessages.description)).toHaveValue("كل ما يخص ميناء الصيادين.");
      await shoot(page, "dashboard-topics-admin");

      // Deleting asks first: dismissed, nothing changes; confirmed, the topic is gone and its page answers 404.
      page.once("dialog", (dialog) => void dialog.dismiss());
      await row.getByRole("button", { name: topicMessages.delete }).click();
      await expect(row).toHaveCount(1);
      page.once("dialog", (dialog) => {
        expect(dialog.message()).toBe(topicMessages.confirmDelete);
        void dialog.accept();
      });
      await row.getByRole("button", { name: topicMessages.delete }).click();
      await expect(page.getByText(topicMessages.deleted)).toBeVisible();
      await expect(row).toHaveCount(0);
      expect((await request.get(wirePath(topicPath(topicSlug(name))))).status()).toBe(404);
      consoleClean();
    });
  });
}
