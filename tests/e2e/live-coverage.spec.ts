import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { liveMessages } from "../../app/lib/messages";
import { liveDeskMessages } from "../../app/lib/newsroom-messages";
import { openDatabase } from "../../app/server/db/db.server";
import { createArticle } from "../../app/server/news/articles-write.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { contextWithSession, hydrated, watchConsole } from "./support";
import { expect, test } from "./test";

/**
 * Live coverage (decision 040): an editor runs a story's live coverage on instance A; two readers watch it, one on each
 * instance, one at the top of the page and one scrolled down, and see every change without a reload.
 */
const SHOTS = path.resolve(".tmp/i37");
const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const STORY = "بدأ فرز الأصوات في أقلام طرابلس والميناء مساء الأحد، وتتوالى النتائج من مراكز الاقتراع.\n".repeat(12);

async function write(page: Page, label: string, text: string): Promise<void> {
  const editor = page.getByRole("textbox", { name: label });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

const updatesOf = (page: Page) => page.getByTestId("live-update");

/** Posts an update from the desk and waits for the desk to list it and give a new, empty editor. */
async function postUpdate(desk: Page, text: string, count: number): Promise<void> {
  await write(desk, liveDeskMessages.newUpdate, text);
  await desk.getByRole("button", { name: liveDeskMessages.post }).click();
  await expect(desk.getByTestId("desk-update")).toHaveCount(count);
  await expect(desk.getByRole("textbox", { name: liveDeskMessages.newUpdate })).toHaveText("");
}

for (const engine of ENGINES) {
  test.describe(`live coverage on two instances of one ${engine} database`, () => {
    let site: TestSite;
    let a: TestServer;
    let b: TestServer;
    let cookie = "";
    let storyPath = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      site = await startTestSite(2, {}, engine);
      [a, b] = site.servers as [TestServer, TestServer];
      const db = openDatabase(site.database.url, 1);
      try {
        cookie = await signedInAs(db, a.site, { email: "live@example.com", username: "ريم الحسن", role: "editor" });
        const { id } = await createArticle(db, {
          title: "الانتخابات البلدية: فرز الأصوات في طرابلس",
          content: STORY,
          category: "local",
          silent: true,
        });
        const row = await db.selectFrom("news").select(["id", "slug"]).where("id", "=", id).executeTakeFirstOrThrow();
        storyPath = `/news/${row.id}/${encodeURIComponent(row.slug ?? "")}`;
      } finally {
        await db.destroy();
      }
    });
    test.afterAll(async () => {
      await site?.stop();
    });

    test("open, post, pin, edit, delete and close on A; a reader at the top on B and a scrolled reader on A see each change live", async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const editorContext = await contextWithSession(browser, a.url, cookie);
      const desk = await editorContext.newPage();
      desk.on("dialog", (dialog) => void dialog.accept());
      const deskErrors = watchConsole(desk);
      // The desk is reached from the story's editor tools.
      await desk.goto(storyPath);
      await desk.getByTestId("admin-tools").getByRole("link", { name: liveMessages.panelTitle }).click();
      await expect(desk).toHaveURL(new RegExp(`/edit-news/${storyPath.split("/")[2]}/live$`));
      await hydrated(desk);
      await desk.getByRole("button", { name: liveDeskMessages.open }).click();
      await expect(desk.getByRole("button", { name: liveDeskMessages.post })).toBeVisible();
      await postUpdate(desk, "فُتحت صناديق الاقتراع الأولى في القبة.", 1);

      // B serves the update once its follower has read it (its next poll on SQLite).
      await expect
        .poll(async () => (await fetch(`${b.url}${storyPath}`)).text())
        .toContain("فُتحت صناديق الاقتراع الأولى في القبة.");
      // Reader one: a desktop at the top of the page on B. Reader two: a phone on A, scrolled past the updates.
      const topContext = await browser.newContext({ baseURL: b.url, viewport: DESKTOP });
      const top = await topContext.newPage();
      const topErrors = watchConsole(top);
      await top.goto(storyPath);
      await hydrated(top);
      const phoneContext = await browser.newContext({ baseURL: a.url, viewport: PHONE });
      const phone = await phoneContext.newPage();
      const phoneErrors = watchConsole(phone);
      await phone.goto(storyPath);
      await hydrated(phone);
      for (const reader of [top, phone]) {
        await expect(updatesOf(reader)).toHaveCount(1);
        await expect(reader.locator("#live-heading .live-badge")).toHaveText(liveMessages.live);
      }
      await phone.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect
        .poll(() =>
          phone.evaluate(
            () => document.querySelector('[data-testid="live-coverage"]')!.getBoundingClientRect().top < 0,
          ),
        )
        .toBe(true);
      const scrolledTo = await phone.evaluate(() => window.scrollY);

      await postUpdate(desk, "النتائج الأولية في الميناء: اللائحة الأولى في المقدمة.", 2);
      await expect(updatesOf(top)).toHaveCount(2);
      await expect(updatesOf(top).first()).toContainText("النتائج الأولية في الميناء");
      await postUpdate(desk, "نسبة الاقتراع في طرابلس بلغت ٣٨٪.", 3);
      await expect(updatesOf(top)).toHaveCount(3);
      // The scrolled reader's page does not move: a button counts what arrived.
      const waiting = phone.getByTestId("live-new-updates");
      await expect(waiting).toHaveText(liveMessages.newUpdates(2));
      await expect(updatesOf(phone)).toHaveCount(1);
      expect(await phone.evaluate(() => window.scrollY)).toBe(scrolledTo);
      // At the very end of the page the pill covers neither the footer nor the last of the content.
      await phone.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect
        .poll(() =>
          phone.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1),
        )
        .toBe(true);
      const pill = (await waiting.boundingBox())!;
      const footer = (await phone.getByRole("contentinfo").boundingBox())!;
      expect(pill.y, JSON.stringify({ pill, footer })).toBeGreaterThanOrEqual(footer.y + footer.height);
      await phone.screenshot({ path: path.join(SHOTS, `${engine}-reader-375-new-updates.png`) });
      await waiting.click();
      await expect(updatesOf(phone)).toHaveCount(3);
      await expect(waiting).toHaveCount(0);
      await expect(updatesOf(phone).first()).toContainText("نسبة الاقتراع");

      // Pin the first update: it goes first, marked, for both readers.
      const firstOnDesk = desk.getByTestId("desk-update").filter({ hasText: "فُتحت صناديق الاقتراع" });
      await firstOnDesk.getByRole("button", { name: liveDeskMessages.pin }).click();
      await expect(firstOnDesk.getByRole("button", { name: liveDeskMessages.unpin })).toBeVisible();
      for (const reader of [top, phone]) {
        await expect(updatesOf(reader).first()).toContainText("فُتحت صناديق الاقتراع");
        await expect(updatesOf(reader).first()).toContainText(liveMessages.pinned);
      }

      // Edit one.
      const turnout = desk.getByTestId("desk-update").filter({ hasText: "نسبة الاقتراع" });
      await turnout.getByRole("button", { name: liveDeskMessages.edit }).click();
      await write(desk, liveDeskMessages.edit, "نسبة الاقتراع في طرابلس بلغت ٤١٪ عند الإقفال.");
      await desk.getByRole("button", { name: liveDeskMessages.save }).click();
      await expect(desk.getByRole("button", { name: liveDeskMessages.save })).toHaveCount(0);
      for (const reader of [top, phone])
        await expect(reader.getByText("نسبة الاقتراع في طرابلس بلغت ٤١٪ عند الإقفال.")).toBeVisible();
      await top.screenshot({ path: path.join(SHOTS, `${engine}-reader-1280-live.png`), fullPage: true });
      await phone.screenshot({ path: path.join(SHOTS, `${engine}-reader-375-live.png`), fullPage: true });
      await desk.setViewportSize(DESKTOP);
      await desk.screenshot({ path: path.join(SHOTS, `${engine}-desk-1280.png`), fullPage: true });
      await desk.setViewportSize(PHONE);
      await desk.screenshot({ path: path.join(SHOTS, `${engine}-desk-375.png`), fullPage: true });

      // While live, the story's card is marked 'مباشر' (the home page on B, both widths).
      const home = await topContext.newPage();
      await home.goto("/");
      await expect(home.locator(".card", { hasText: "الانتخابات البلدية" }).first().locator(".live-badge")).toHaveText(
        liveMessages.live,
      );
      await home.screenshot({ path: path.join(SHOTS, `${engine}-home-1280-live-card.png`) });
      await home.setViewportSize(PHONE);
      await home.screenshot({ path: path.join(SHOTS, `${engine}-home-375-live-card.png`) });
      await home.close();

      // Delete one.
      await desk
        .getByTestId("desk-update")
        .filter({ hasText: "النتائج الأولية في الميناء" })
        .getByRole("button", { name: liveDeskMessages.delete })
        .click();
      for (const reader of [top, phone]) {
        await expect(updatesOf(reader)).toHaveCount(2);
        await expect(reader.getByText("النتائج الأولية في الميناء")).toHaveCount(0);
      }

      // Each update has its own address: following it lands on the update.
      const anchor = await updatesOf(top).first().getAttribute("id");
      expect(anchor).toMatch(/^update-/);

      // Close with a summary: the archive stays, the 'مباشر' mark goes.
      await desk
        .getByLabel(liveDeskMessages.summaryLabel)
        .fill("فازت اللائحة الأولى بثلاثة عشر مقعداً من أصل أربعة وعشرين.");
      await desk.getByRole("button", { name: liveDeskMessages.close }).click();
      for (const reader of [top, phone]) {
        await expect(reader.getByTestId("live-closed")).toContainText(liveMessages.closed);
        await expect(reader.getByTestId("live-summary")).toHaveText(
          "فازت اللائحة الأولى بثلاثة عشر مقعداً من أصل أربعة وعشرين.",
        );
        await expect(reader.locator("#live-heading .live-badge")).toHaveCount(0);
        await expect(updatesOf(reader)).toHaveCount(2);
      }
      await top.screenshot({ path: path.join(SHOTS, `${engine}-reader-1280-closed.png`) });

      // Without JavaScript the page shows every update, and a reload shows the archive.
      const plainContext = await browser.newContext({ baseURL: b.url, viewport: PHONE, javaScriptEnabled: false });
      const plain = await plainContext.newPage();
      await plain.goto(`${storyPath}#${anchor}`);
      await expect(updatesOf(plain)).toHaveCount(2);
      await expect(plain.getByTestId("live-summary")).toBeVisible();

      topErrors();
      phoneErrors();
      deskErrors();
      await Promise.all([editorContext.close(), topContext.close(), phoneContext.close(), plainContext.close()]);
    });
  });
}
