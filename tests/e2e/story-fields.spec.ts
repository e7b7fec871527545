import sharp from "sharp";
import { newsroomMessages, storyMessages } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { fillBody, hydrated } from "./support";
import { expect, test } from "./test";

/* The story's own fields: an editor writes a standfirst and share fields, publishes, and reads the article at its readable address. */

const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const SHOTS = ".tmp/story-fields";

const png = (width: number, height: number, color: string) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");

for (const engine of ENGINES) {
  test.describe(`an editor's story fields on a fresh ${engine} site`, () => {
    test.describe.configure({ mode: "serial" });
    let site: TestSite;
    let server: TestServer;
    let db: DB;
    let cookie = "";
    const editorName = "ريم الحسن";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      site = await startTestSite(1, {}, engine);
      server = site.servers[0]!;
      db = openDatabase(site.database.url, 1);
      cookie = await signedInAs(db, server.site, {
        email: "story-editor@example.com",
        username: editorName,
        role: "editor",
      });
    });
    test.afterAll(async () => {
      await db?.destroy();
      await site?.stop();
    });

    async function editorPage(browser: import("@playwright/test").Browser, width: number) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const name = cookie.slice(0, cookie.indexOf("="));
      await context.addCookies([{ name, value: cookie.slice(name.length + 1), url: server.url }]);
      return context.newPage();
    }

    test("write a standfirst, a share title and picture, publish, open the readable address and read its og:* tags", async ({
      browser,
    }) => {
      const page = await editorPage(browser, 1280);
      await page.goto(`${server.url}/dashboard`);
      await hydrated(page);
      const title = "افتتاحُ معرضِ الكتاب في طرابلس!";
      const standfirst = "يستقبل المعرض زواره عشرة أيام بمشاركة مئة دار نشر من لبنان والعالم العربي.";
      await page.getByLabel(newsroomMessages.fieldTitle).fill(title);
      await page.getByLabel(storyMessages.standfirst).fill(standfirst);
      await fillBody(page, "افتتح صباح اليوم معرض الكتاب في طرابلس.\nويستمر حتى نهاية الشهر.");
      await page.getByText(storyMessages.shareGroup).click();
      await page.getByLabel(storyMessages.shareTitle).fill("معرض طرابلس للكتاب يفتح أبوابه");
      await page
        .getByLabel(storyMessages.shareImage)
        .setInputFiles({ name: "share.png", mimeType: "image/png", buffer: await png(1600, 1000, "#136f63") });
      await page.getByTestId("share-fields").screenshot({ path: `${SHOTS}/${engine}-form-share-group-1280.png` });
      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page).toHaveURL(/\/dashboard\?saved=/);
      const id = new URL(page.url()).searchParams.get("saved")!;

      const slug = "افتتاح-معرض-الكتاب-في-طرابلس";
      const canonical = `${server.url}/news/${id}/${encodeURIComponent(slug)}`;
      for (const width of [375, 1280]) {
        const reader = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
        await reader.goto(`${server.url}/news/${id}`);
        await expect(reader).toHaveURL(canonical);
        await expect(reader.getByTestId("standfirst")).toHaveText(standfirst);
        await reader.screenshot({ path: `${SHOTS}/${engine}-article-${width}.png` });
        await reader.context().close();
      }

      const html = await (await fetch(canonical)).text();
      expect(metaOf(html, "og:url")).toBe(`${server.site.baseUrl}/news/${id}/${encodeURIComponent(slug)}`);
      expect(metaOf(html, "og:title")).toBe("معرض طرابلس للكتاب يفتح أبوابه");
      expect(metaOf(html, "og:description")).toBe(standfirst);
      expect(metaOf(html, "og:image")).toMatch(/\/media\/share-images\/[0-9a-f]{16}-share-1200x630\.png$/);
      expect(metaOf(html, "og:image:width")).toBe("1200");
      expect(metaOf(html, "og:image:height")).toBe("630");
      const picture = await fetch(`${server.url}${new URL(metaOf(html, "og:image")!).pathname}`);
      expect(await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).toMatchObject({
        width: 1200,
        height: 630,
      });

      // The form at 375 px, its share group open with the saved picture.
      const narrow = await editorPage(browser, 375);
      await narrow.goto(`${server.url}/edit-news/${id}`);
      await hydrated(narrow);
      await expect(narrow.getByTestId("share-fields")).toHaveAttribute("open", "");
      await narrow.getByTestId("share-fields").screenshot({ path: `${SHOTS}/${engine}-form-share-group-375.png` });
    });

    test("the author page shows the photo, bio and links the member saved on their account page", async ({
      browser,
    }) => {
      const page = await editorPage(browser, 1280);
      await page.goto(`${server.url}/dashboard/account`);
      await hydrated(page);
      const form = page.getByTestId("profile-form");
      await form
        .getByLabel(storyMessages.photo)
        .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await png(600, 800, "#c8102e") });
      await form.getByLabel(storyMessages.bio).fill("صحافية من طرابلس تكتب عن الثقافة والكتب.");
      await form.getByLabel(storyMessages.links).fill("https://x.com/reem\nhttps://example.org/reem");
      await form.getByRole("button", { name: storyMessages.saveProfile }).click();
      await expect(form.getByRole("status")).toHaveText(storyMessages.profileSaved);

      for (const width of [375, 1280]) {
        const reader = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
        await reader.goto(`${server.url}/author/${encodeURIComponent(editorName)}`);
        const card = reader.getByTestId("author-card");
        await expect(card).toContainText("صحافية من طرابلس");
        await expect(card.getByRole("link", { name: "x.com/reem" })).toHaveAttribute("href", "https://x.com/reem");
        expect(
          await card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 400),
        ).toBe(true);
        await reader.screenshot({ path: `${SHOTS}/${engine}-author-${width}.png` });
        await reader.context().close();
      }
    });
  });
}
