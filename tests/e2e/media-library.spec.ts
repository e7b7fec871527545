import sharp from "sharp";
import { mediaLibraryMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { fillBody, hydrated } from "./support";
import { expect, test } from "./test";

/* The media library: an image uploaded for one story is reused in another from the library, its focal point set by a click and kept in the card crop and the share picture. */

const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const SHOTS = "/tmp/i34-media-shots";

/** A portrait picture, sand above and a blue band in its lowest fifth: a centre crop to 16:9 shows no blue. */
const portrait = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200"><rect width="900" height="960" fill="#e9c46a"/><rect y="960" width="900" height="240" fill="#1d4ed8"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");

/** The share of blue pixels in a picture. */
async function blueShare(picture: Buffer): Promise<number> {
  const { data, info } = await sharp(picture).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let blue = 0;
  for (let at = 0; at < data.length; at += info.channels) if (data[at + 2]! > 180 && data[at]! < 80) blue++;
  return blue / (info.width * info.height);
}

for (const engine of ENGINES) {
  test.describe(`the media library on a fresh ${engine} site`, () => {
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
        email: "media-editor@example.com",
        username: "سلمى المحررة",
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

    async function publish(
      page: import("@playwright/test").Page,
      title: string,
      withImage: (page: import("@playwright/test").Page) => Promise<void>,
    ): Promise<string> {
      await page.goto(`${server.url}/dashboard`);
      await hydrated(page);
      await page.getByLabel(newsroomMessages.fieldTitle).fill(title);
      await fillBody(page, `${title}: نص الخبر كما كتبه المحرر.`);
      await withImage(page);
      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page).toHaveURL(/\/dashboard\?saved=/);
      return new URL(page.url()).searchParams.get("saved")!;
    }

    test("upload for one story, reuse from the library in another, set the focal point by a click, see it kept in the card and the share picture", async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const page = await editorPage(browser, 1280);
      const picture = await portrait();
      const first = await publish(page, "رافعات المرفأ عند الفجر", (p) =>
        p
          .getByLabel(newsroomMessages.fieldImages, { exact: true })
          .setInputFiles({ name: "port.png", mimeType: "image/png", buffer: picture }),
      );
      const [url] = JSON.parse(
        (await db.selectFrom("news").select("images").where("id", "=", first).executeTakeFirstOrThrow()).images,
      ) as string[];

      // The second story takes it from the library as its cover: no file is uploaded.
      const second = await publish(page, "المرفأ يستقبل أكبر سفينة", async (p) => {
        await p.getByTestId("media-picker-open").click();
        const item = p.getByTestId("picker-item");
        await expect(item).toHaveCount(1);
        await expect(item).toHaveAttribute("data-url", url!);
        await p.getByTestId("media-picker").screenshot({ path: `${SHOTS}/${engine}-form-picker-1280.png` });
        await item.getByRole("button", { name: mediaLibraryMessages.makeCover }).click();
        await expect(p.locator(`[data-image="${url}"]`)).toBeVisible();
      });
      expect(
        JSON.parse(
          (await db.selectFrom("news").select("images").where("id", "=", second).executeTakeFirstOrThrow()).images,
        ),
      ).toEqual([url]);
      expect(await db.selectFrom("media").select("url").execute()).toEqual([{ url }]);

      // The library lists both uses; a click low on the picture sets the focal point there.
      await page.goto(`${server.url}/dashboard/media`);
      await hydrated(page);
      const card = page.locator(`[data-testid="media-item"][data-url="${url}"]`);
      await expect(card.getByTestId("media-uses")).toContainText("رافعات المرفأ عند الفجر");
      await expect(card.getByTestId("media-uses")).toContainText("المرفأ يستقبل أكبر سفينة");
      const picker = card.getByTestId("focal-picker");
      const box = (await picker.boundingBox())!;
      await picker.click({ position: { x: box.width * 0.5, y: box.height * 0.9 } });
      await expect
        .poll(
          async () => (await db.selectFrom("media").select(["focal_x", "focal_y"]).executeTakeFirstOrThrow()).focal_y,
        )
        .toBeGreaterThan(0.85);
      await page.reload();
      await hydrated(page);
      // The size and the date each keep to their side of a separator: "١٢ … ٢٠٢٦ · 900×1200", never run together.
      const meta = await card.locator("time").evaluate((timeElement) => {
        const line = timeElement.parentElement!;
        // Each piece's own glyphs, wherever the markup puts them (React may split a text into several nodes).
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
        const whole = nodes.map((node) => node.data).join("");
        const pointAt = (offset: number): [Text, number] => {
          for (const node of nodes) {
            if (offset <= node.data.length) return [node, offset];
            offset -= node.data.length;
          }
          throw new Error("past the line's end");
        };
        const rectsOf = (text: string) => {
          const found: { left: number; right: number }[] = [];
          for (let at = whole.indexOf(text); at >= 0; at = whole.indexOf(text, at + 1)) {
            const range = document.createRange();
            range.setStart(...pointAt(at));
            range.setEnd(...pointAt(at + text.length));
            const { left, right } = range.getBoundingClientRect();
            found.push({ left, right });
          }
          return found;
        };
        const time = timeElement.getBoundingClientRect();
        return {
          time: { left: time.left, right: time.right },
          size: rectsOf("900×1200")[0]!,
          separators: rectsOf("·"),
        };
      });
      // Right to left: the date, then the separator, then the size, each further left.
      expect(
        meta.separators.some((dot) => dot.right <= meta.time.left && dot.left >= meta.size.right),
        JSON.stringify(meta),
      ).toBe(true);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/${engine}-library-${width}.png`, fullPage: true });
      }

      // Readers' cards crop around it at both widths: the blue band low in the picture is in frame.
      for (const width of [375, 1280]) {
        const reader = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
        await reader.goto(`${server.url}/local`);
        const thumb = reader.locator(`a[href*="/news/${second}"] .thumb`).first();
        await thumb.scrollIntoViewIfNeeded();
        await expect(thumb.locator("img")).toHaveClass(/object-\[50%_90%\]/);
        await expect
          .poll(() => thumb.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        const shot = await thumb.screenshot({ path: `${SHOTS}/${engine}-card-${width}.png` });
        expect(await blueShare(shot)).toBeGreaterThan(0.1);
        await reader.context().close();
      }

      // The share picture is cut around it too.
      const html = await (await fetch(`${server.url}/news/${second}`, { redirect: "follow" })).text();
      const og = new URL(metaOf(html, "og:image")!).pathname;
      expect(og).toMatch(/^\/media\/focal-crops\/.+-1200x630\.jpg$/);
      const share = Buffer.from(await (await fetch(`${server.url}${og}`)).arrayBuffer());
      expect(await sharp(share).metadata()).toMatchObject({ width: 1200, height: 630 });
      expect(await blueShare(share)).toBeGreaterThan(0.1);

      // A video's poster, uploaded as a picture on the form, shown on the reader's <video> before it plays.
      await db
        .updateTable("news")
        .set({ video: "/media/news-videos/00000000000000aa-clip.mp4", is_video: 1 })
        .where("id", "=", second)
        .execute();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/edit-news/${second}`);
        await hydrated(page);
        const field = page.getByTestId("video-poster-field");
        await field
          .getByText(mediaLibraryMessages.posterUpload)
          .locator("input")
          .setInputFiles({
            name: `poster-${width}.png`,
            mimeType: "image/png",
            buffer: await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#264653" } })
              .png()
              .toBuffer(),
          });
        await expect(field.getByRole("status")).toHaveText(mediaLibraryMessages.posterSaved);
        await expect(field.getByTestId("video-poster-current")).toBeVisible();
        await field.screenshot({ path: `${SHOTS}/${engine}-poster-field-${width}.png` });
      }
      const { poster_url: poster } = await db
        .selectFrom("video_posters")
        .select("poster_url")
        .executeTakeFirstOrThrow();
      const article = await (await fetch(`${server.url}/news/${second}`, { redirect: "follow" })).text();
      expect(article).toContain(`poster="${poster.replace(/\.webp$/, "-1200w.webp")}"`);
      await page.context().close();
    });
  });
}
