import sharp from "sharp";
import { settingsMessages } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { createTestArticle } from "../../harness/articles";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { hydrated } from "./support";
import { expect, test } from "./test";

/** As the demo sites: SQLite always, PostgreSQL when npm test runs its pass. */
const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];

const png = (width: number, height: number, color: string) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
const metaOf = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];

for (const engine of ENGINES) {
  test.describe(`the site's settings on two instances of one fresh ${engine} site`, () => {
    let site: TestSite;
    let a: TestServer;
    let b: TestServer;
    let db: DB;
    let cookie = "";
    let articleId = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      site = await startTestSite(2, {}, engine);
      [a, b] = site.servers as [TestServer, TestServer];
      db = openDatabase(site.database.url, 1);
      cookie = await signedInAs(db, a.site, {
        email: "first-admin@example.com",
        username: "المديرة الأولى",
        role: "admin",
      });
      articleId = (
        await createTestArticle(db, { title: "خبر بلا صورة على الموقع الجديد", content: "نص", category: "sports" })
      ).id;
    });
    test.afterAll(async () => {
      await db?.destroy();
      await site?.stop();
    });

    test("the first admin is led to the settings; a new name, logo and social link reach B's header, footer, share tags and feed within seconds", async ({
      browser,
    }) => {
      const reader = await (await browser.newContext()).newPage();
      await reader.goto(`${b.url}/news/${articleId}`);
      await expect(reader.getByTestId("site-name")).toHaveText(settingsMessages.neutralSiteName);
      await expect(reader.locator("footer").getByRole("link", { name: "Facebook" })).toHaveCount(0);

      const adminContext = await browser.newContext();
      const name = cookie.slice(0, cookie.indexOf("="));
      await adminContext.addCookies([{ name, value: cookie.slice(name.length + 1), url: a.url }]);
      const admin = await adminContext.newPage();
      await admin.goto(`${a.url}/dashboard`);
      await hydrated(admin);
      const banner = admin.getByTestId("settings-setup-banner");
      await expect(banner).toContainText(settingsMessages.settingsSetupBanner);
      await banner.getByRole("link", { name: settingsMessages.settingsSetupAction }).click();
      await expect(admin).toHaveURL(`${a.url}/dashboard/settings`);
      await hydrated(admin);

      const siteName = `نبض الشمال ${Date.now() % 1000}`;
      await admin.getByLabel(settingsMessages.settingsName).fill(siteName);
      await admin.getByLabel(settingsMessages.settingsTagline).fill("أخبار المنية والضنية");
      await admin.getByRole("textbox", { name: "Facebook" }).fill("https://www.facebook.com/nabd.alshamal");
      await admin
        .getByLabel(settingsMessages.settingsLogo)
        .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await png(500, 500, "#136f63") });
      await admin
        .getByLabel(settingsMessages.settingsShareImage)
        .setInputFiles({ name: "share.png", mimeType: "image/png", buffer: await png(1400, 800, "#c8102e") });
      await admin.getByRole("button", { name: settingsMessages.settingsSave }).click();
      await expect(admin.getByRole("status")).toHaveText(settingsMessages.settingsSaved);
      await expect(admin.getByTestId("settings-setup-banner")).toHaveCount(0);

      // B: a reload within seconds shows the new header and footer (the page was served before the change).
      await expect(async () => {
        await reader.reload();
        await expect(reader.getByTestId("site-name")).toHaveText(siteName, { timeout: 200 });
      }).toPass({ timeout: 5_000, intervals: [100] });
      await expect(reader).toHaveTitle(`خبر بلا صورة على الموقع الجديد | ${siteName}`);
      await expect(reader.locator("header img").first()).toHaveAttribute(
        "src",
        /\/media\/site-images\/.+-logo-256x256\.png$/,
      );
      const logoLoaded = await reader
        .locator("header img")
        .first()
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 256);
      expect(logoLoaded).toBe(true);
      await expect(reader.getByTestId("footer-site-name")).toHaveText(siteName);
      await expect(reader.locator("footer").getByRole("link", { name: "Facebook" })).toHaveAttribute(
        "href",
        "https://www.facebook.com/nabd.alshamal",
      );

      const html = await (await fetch(`${b.url}/news/${articleId}`)).text();
      expect(metaOf(html, "og:site_name")).toBe(siteName);
      expect(metaOf(html, "og:image")).toMatch(/\/media\/site-images\/.+-shareimage-1200x630\.png$/);
      expect(await (await fetch(`${b.url}/rss.xml`)).text()).toContain(`<title>${siteName}</title>`);

      await adminContext.close();
      await reader.context().close();
    });
  });
}
