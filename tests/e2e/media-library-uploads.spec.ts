import sharp from "sharp";
import { messages } from "../../app/lib/messages";
import { mediaLibraryMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { hydrated } from "./support";
import { expect, test } from "./test";

/* The media library's own uploads, several pictures at once, and a wrong picture only earlier versions use deleted: those versions say so. */

const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const SHOTS = "/tmp/i46-media-shots";

const picture = (colour: string, width = 640) =>
  sharp({ create: { width, height: 360, channels: 3, background: colour } })
    .png()
    .toBuffer();

for (const engine of ENGINES) {
  test.describe(`the media library's uploads on a fresh ${engine} site`, () => {
    let site: TestSite;
    let server: TestServer;
    let db: DB;
    let cookie = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      site = await startTestSite(1, {}, engine);
      server = site.servers[0]!;
      db = openDatabase(site.database.url, 1);
      cookie = await signedInAs(db, server.site, {
        email: "library-editor@example.com",
        username: "رنا المحررة",
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

    test("uploads several pictures at once on the library's page, then deletes a wrong picture only an earlier version uses: that version shows it removed", async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const page = await editorPage(browser, 1280);
      await page.goto(`${server.url}/dashboard/media`);
      await hydrated(page);
      const form = page.getByTestId("media-upload");
      const colours = ["#264653", "#2a9d8f", "#e9c46a"];
      await form.getByLabel(mediaLibraryMessages.uploadField).setInputFiles(
        await Promise.all(
          colours.map(async (colour, index) => ({
            name: `harbour-${index}.png`,
            mimeType: "image/png",
            buffer: await picture(colour),
          })),
        ),
      );
      await form.getByRole("button", { name: mediaLibraryMessages.uploadSubmit }).click();
      await expect(form.getByRole("status")).toHaveText(mediaLibraryMessages.uploaded(3));
      await expect(page.getByTestId("media-item")).toHaveCount(3);
      for (const image of await page.getByTestId("focal-picker").locator("img").all()) {
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
      }
      // A file that is no picture is refused in Arabic, beside the form.
      await form
        .getByLabel(mediaLibraryMessages.uploadField)
        .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") });
      await form.getByRole("button", { name: mediaLibraryMessages.uploadSubmit }).click();
      await expect(form.getByRole("alert")).toHaveText(newsroomMessages.imageInvalid);
      await expect(page.getByTestId("media-item")).toHaveCount(3);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/${engine}-library-upload-${width}.png`, fullPage: true });
      }

      // A story with two of them; the second was the wrong photo and is taken off: only the kept earlier version uses it.
      const [cover, wrong] = (await db.selectFrom("media").select("url").orderBy("url").execute()).map(
        (row) => row.url,
      ) as [string, string];
      const api = (method: "POST" | "PUT", path: string, fields: Record<string, string | string[]>) => {
        const body = new FormData();
        for (const [key, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(key, item);
        return fetch(`${server.url}${path}`, { method, body, headers: { cookie, origin: server.url } });
      };
      const story = {
        title: "افتتاح سوق السمك في المرفأ",
        content: "نص الخبر",
        category: "local",
        status: "published",
      };
      const created = await api("POST", "/api/news", {
        ...story,
        imageOrder: [cover, wrong],
        imageAlt: ["", ""],
        imageCaption: ["", ""],
        imageCredit: ["", ""],
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const { version } = await db.selectFrom("news").select("version").where("id", "=", id).executeTakeFirstOrThrow();
      expect(
        (await api("PUT", `/api/news/${id}`, { ...story, removeImages: wrong, baseVersion: String(version) })).status,
      ).toBe(200);
      const { id: revision } = await db
        .selectFrom("news_revisions")
        .select("id")
        .where("news_id", "=", id)
        .executeTakeFirstOrThrow();

      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.url}/dashboard/media`);
      await hydrated(page);
      const card = page.locator(`[data-testid="media-item"][data-url="${wrong}"]`);
      await expect(card.getByTestId("media-uses")).toContainText(mediaLibraryMessages.onlyInRevisions);
      await expect(
        page
          .locator(`[data-testid="media-item"][data-url="${cover}"]`)
          .getByRole("button", { name: mediaLibraryMessages.delete }),
      ).toHaveCount(0);
      await card.getByRole("button", { name: mediaLibraryMessages.delete }).click();
      await expect(page.getByRole("status").filter({ hasText: mediaLibraryMessages.deleted })).toBeVisible();
      await expect(card).toHaveCount(0);
      expect((await fetch(`${server.url}${wrong}`)).status).toBe(404);

      // The earlier version shows a box that says the picture was removed, never a broken image.
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/edit-news/${id}/revisions/${revision}`);
        await hydrated(page);
        const removed = page.getByTestId("article-images").getByTestId("removed-image");
        await expect(removed).toHaveText(messages.removedImage);
        await expect(page.locator(`img[src*="${wrong.replace(/\.webp$/, "")}"]`)).toHaveCount(0);
        const broken = await page
          .locator("main img")
          .evaluateAll((images: HTMLImageElement[]) =>
            images.filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
          );
        expect(broken).toEqual([]);
        await removed.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/${engine}-revision-removed-${width}.png`, fullPage: true });
      }
      await page.context().close();
    });
  });
}
