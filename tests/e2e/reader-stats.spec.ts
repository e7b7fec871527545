import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { statsMessages as m } from "../../app/lib/newsroom-messages";
import { createTestArticle } from "../../harness/articles";
import { E2E_SERVERS, FILES_DIR } from "./servers";
import { createMember, hydrated, readSiteDatabase, signedInState, watchConsole } from "./support";
import { expect, test } from "./test";

const site = E2E_SERVERS.demo;
const SHOTS = path.resolve(".tmp/i36");
const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

test.describe.configure({ mode: "serial" });

type Story = { id: string; shortId: string; title: string };
let authorState: string;
let editorState: string;
let hers: Story;
let other: Story;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const author = await createMember("author", "مراسلة الميناء", site, "stats-author");
  authorState = await signedInState(author, path.join(FILES_DIR, "stats-author.json"), site);
  editorState = await signedInState(
    await createMember("editor", "محررة الإحصاءات", site, "stats-editor"),
    path.join(FILES_DIR, "stats-editor.json"),
    site,
  );
  const authorId = await readSiteDatabase(
    site,
    async (db) =>
      (await db.selectFrom("user").select("id").where("email", "=", author.email).executeTakeFirstOrThrow()).id,
  );
  const story = (title: string, by: string | null) =>
    readSiteDatabase(site, async (db) => {
      const created = await createTestArticle(db, {
        title,
        content: "نص الخبر للإحصاءات",
        category: "sports",
        authorId: by,
      });
      return { id: created.id, shortId: created.shortId ?? "", title };
    });
  hers = await story("فوز فريق الميناء في بطولة الشمال", authorId);
  other = await story("افتتاح سوق الخضار الجديد في البلدة", null);
});

/** A reader's own browser: a fresh context (its own local storage), its address as the proxy names it. */
async function reader(browser: Browser, address: string, options: { phone?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: site.url,
    extraHTTPHeaders: { "x-forwarded-for": address },
    ...(options.phone ? { userAgent: PHONE_UA, viewport: { width: 375, height: 800 } } : {}),
  });
  return context.newPage();
}

/**
 * Opens `url` on the site, by a link on another site's page when `from` names one (answered here:
 * nothing leaves this machine). Over http, as the test site is: from https to http a browser sends no referrer.
 */
async function read(page: Page, url: string, from?: string): Promise<void> {
  if (from) {
    await page.route(`${from}**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><meta name="referrer" content="origin"><a href="${site.url}${url}">الخبر</a>`,
      }),
    );
    await page.goto(from);
    await page.getByRole("link").click();
    await page.waitForURL(`${site.url}/**`);
  } else {
    await page.goto(url);
  }
  await hydrated(page);
  // The island posts after the page is shown; its list then names the story.
  await page.waitForFunction(() => (localStorage.getItem("visitedNews") ?? "").length > 2);
}

async function openAs(browser: Browser, state: string, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: site.url,
    storageState: state,
    viewport: { width, height: 900 },
  });
  return context.newPage();
}

test("readers from several browsers and sources reach the live panel and today's charts within seconds; an author sees only their stories", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const editor = await openAs(browser, editorState, 1280);
  const noConsoleErrors = watchConsole(editor);
  await editor.goto("/dashboard/stats");
  await hydrated(editor);
  await expect(editor.getByRole("heading", { level: 1, name: m.title })).toBeVisible();
  await expect(editor.getByTestId("live-stories").locator(`[data-story="${hers.id}"]`)).toHaveCount(0);

  // Two browsers behind one address (an office), both count; the second came by a WhatsApp share of the short link.
  await read(await reader(browser, "203.0.113.150"), `/news/${hers.id}`, "http://www.facebook.com/");
  await read(await reader(browser, "203.0.113.150"), `/${hers.shortId}?utm_source=whatsapp`);
  await read(await reader(browser, "203.0.113.151"), `/news/${hers.id}?utm_source=telegram`);
  await read(await reader(browser, "203.0.113.152", { phone: true }), `/news/${hers.id}`, "http://www.google.com/");
  await read(await reader(browser, "203.0.113.153"), `/news/${other.id}`, "http://t.co/abc");

  // The live panel asks again on its own: no reload.
  const liveRow = editor.getByTestId("live-stories").locator(`[data-story="${hers.id}"]`);
  await expect(liveRow).toContainText((4).toLocaleString("ar-LB"), { timeout: 15_000 });
  await expect(editor.getByTestId("live-stories").locator(`[data-story="${other.id}"]`)).toBeVisible();

  await editor.reload();
  await hydrated(editor);
  await expect(editor.getByTestId("top-stories").locator(`[data-key="${hers.id}"] [data-views]`)).toHaveAttribute(
    "data-views",
    "4",
  );
  const sources = editor.getByTestId("sources");
  for (const [source, views] of [
    ["facebook", "1"],
    ["whatsapp", "1"],
    ["telegram", "1"],
    ["google-search", "1"],
    ["x", "1"],
  ] as const) {
    await expect(sources.locator(`[data-key="${source}"]`)).toContainText(m.sourceLabels[source]);
    expect(
      Number(await sources.locator(`[data-key="${source}"] [data-views]`).getAttribute("data-views")),
    ).toBeGreaterThanOrEqual(Number(views));
  }
  await expect(editor.getByTestId("devices").locator('[data-key="phone"]')).toContainText(m.deviceLabels.phone);
  await expect(editor.getByTestId("time-chart").first()).toBeVisible();
  await editor.screenshot({ path: path.join(SHOTS, "stats-editor-1280.png"), fullPage: true });

  const csv = await editor.request.get("/dashboard/stats.csv?range=today&table=top");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(`${hers.id},${hers.title},4`);

  const narrow = await openAs(browser, editorState, 375);
  await narrow.goto("/dashboard/stats");
  await hydrated(narrow);
  expect(
    await narrow.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
  await narrow.screenshot({ path: path.join(SHOTS, "stats-editor-375.png"), fullPage: true });

  // The story's own panel on its edit page: its curve since publication and its sources.
  await editor.goto(`/edit-news/${hers.id}`);
  const panel = editor.getByTestId("story-stats");
  await expect(panel.getByTestId("story-views")).toHaveText((4).toLocaleString("ar-LB"));
  await expect(panel.getByTestId("story-sources").locator('[data-key="whatsapp"]')).toContainText(
    m.sourceLabels.whatsapp,
  );
  await panel.screenshot({ path: path.join(SHOTS, "story-panel-1280.png") });
  noConsoleErrors();

  for (const width of [375, 1280]) {
    const author = await openAs(browser, authorState, width);
    await author.goto("/dashboard/stats");
    await hydrated(author);
    await expect(author.getByText(m.ownOnly)).toBeVisible();
    await expect(author.getByTestId("top-stories").locator(`[data-key="${hers.id}"]`)).toBeVisible();
    await expect(author.getByTestId("top-stories").locator(`[data-key="${other.id}"]`)).toHaveCount(0);
    await expect(author.getByTestId("live-stories").locator(`[data-story="${other.id}"]`)).toHaveCount(0);
    await expect(author.getByTestId("total-views")).toHaveText((4).toLocaleString("ar-LB"));
    const theirCsv = await (await author.request.get("/dashboard/stats.csv?range=today&table=top")).text();
    expect(theirCsv).not.toContain(other.title);
    await author.screenshot({ path: path.join(SHOTS, `stats-author-${width}.png`), fullPage: true });
  }
});
