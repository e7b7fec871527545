import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { newsletterFormMessages as f, newsletterMessages as m } from "../../app/lib/messages";
import { newsletterDeskMessages as d } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs } from "../../harness/accounts";
import { createTestArticle } from "../../harness/articles";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { parsedMail, startNewsletterSmtp, type NewsletterSmtp } from "../support/newsletter-mail";
import { afterNextBrief, fastNewsletter, moveClockTo } from "../support/newsletter";
import { contextWithSession } from "./support";
import { expect, test } from "./test";

/*
 * A reader signs up from an article in Chromium, confirms from the mail the local SMTP server received,
 * changes their choices, gets the morning brief at its hour by the site's clock, and a one-click POST
 * with no cookie unsubscribes them. Screenshots of the form, the dashboard and the received mail.
 */

const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const SHOTS = path.resolve(".tmp/screenshots");
const WIDTHS = [375, 1280];
const READER = "salwa@example.com";

for (const engine of ENGINES) {
  test.describe(`the newsletter in Chromium on ${engine}`, () => {
    let site: TestSite;
    let server: TestServer;
    let db: DB;
    let smtp: NewsletterSmtp;
    let dir: string;
    const offset = { ms: 0 };

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      smtp = await startNewsletterSmtp();
      dir = mkdtempSync(path.join(tmpdir(), "akhbar-newsletter-e2e-"));
      site = await startTestSite(
        1,
        {
          SMTP_URL: smtp.url,
          MAIL_FROM: "أخبار البلدة <news@akhbar.example>",
          TEST_CLOCK_FILE: path.join(dir, "clock"),
          SCHEDULER_INTERVAL_MS: "200",
        },
        engine,
      );
      server = site.servers[0]!;
      db = openDatabase(site.database.url, 1);
      await fastNewsletter(db);
    });
    test.afterAll(async () => {
      await db?.destroy();
      await site?.stop();
      await smtp?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const mailsTo = async (to: string, count: number) => {
      await expect.poll(() => smtp.mailsTo(to).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
      return parsedMail(smtp.mailsTo(to)[count - 1]!.raw);
    };
    const linkIn = (text: string, part: string) =>
      new RegExp(`https?://[^\\s"<>]+${part}\\?t=[A-Za-z0-9_.-]+`).exec(text)![0];
    const shoot = async (page: Page, name: string) => {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${width}px overflows`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(SHOTS, `newsletter-${name}-${engine}-${width}.png`), fullPage: true });
      }
    };

    test("sign up, confirm from the mail, change choices, receive the brief at its hour, one-click unsubscribe", async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const story = await createTestArticle(db, {
        title: "افتتاح المكتبة العامة في ساحة البلدة",
        content: "افتتحت البلدية صباح اليوم المكتبة العامة الجديدة في ساحة البلدة، وتضم أكثر من عشرة آلاف كتاب.",
      });
      await createTestArticle(db, {
        title: "بدء العام الدراسي في مدارس القضاء",
        content: "عاد التلاميذ إلى صفوفهم.",
        category: "educational",
      });
      const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
      const page = await context.newPage();

      // The form at the end of an article, without script.
      await page.goto(`/news/${story.id}`);
      const form = page.locator("article [data-testid=newsletter-form]");
      await form.scrollIntoViewIfNeeded();
      await form.screenshot({ path: path.join(SHOTS, `newsletter-form-article-${engine}.png`) });
      await form.getByRole("textbox").fill(READER);
      await form.getByRole("button", { name: f.subscribe }).click();
      await expect(page.getByText(m.checkInbox)).toBeVisible();
      await shoot(page, "signed-up");

      const confirmation = await mailsTo(READER, 1);
      await page.goto(linkIn(confirmation.text ?? "", "/newsletter/confirm"));
      await page.getByRole("button", { name: m.confirmButton }).click();
      await expect(page.getByRole("heading", { name: m.confirmedTitle })).toBeVisible();

      // The brief at its hour, by the site's clock.
      moveClockTo(path.join(dir, "clock"), afterNextBrief(offset.ms), offset);
      const brief = await mailsTo(READER, 2);
      expect(brief.html).toContain('dir="rtl"');
      const mailPage = await context.newPage();
      await mailPage.setContent(String(brief.html));
      await shoot(mailPage, "mail");

      // Preferences from the mail's link: breaking news too.
      await page.goto(linkIn(brief.text ?? "", "/newsletter/preferences"));
      await expect(page.getByTestId("preferences-email")).toHaveText(READER);
      await page.getByTestId("preferences-form").getByLabel(m.breaking).check();
      await page.getByRole("button", { name: m.save }).click();
      await expect(page.getByText(m.saved)).toBeVisible();
      await shoot(page, "preferences");
      expect(
        await db
          .selectFrom("newsletter_subscribers")
          .select(["breaking", "status"])
          .where("email", "=", READER)
          .executeTakeFirst(),
      ).toMatchObject({ status: "confirmed" });

      // One click, as a mail provider sends it: a POST with no cookie.
      const unsubscribe = /^<(.+)>$/.exec(
        brief.headerLines.find((line) => line.key === "list-unsubscribe")!.line.replace(/^[^:]+:\s*/, ""),
      )![1]!;
      const answer = await page.request.post(unsubscribe, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data: "List-Unsubscribe=One-Click",
      });
      expect(answer.status()).toBe(200);
      const stored = await db
        .selectFrom("newsletter_subscribers")
        .select("status")
        .where("email", "=", READER)
        .executeTakeFirst();
      expect(stored?.status).toBe("unsubscribed");
      await context.close();
    });

    test("the newsroom's page: the next brief, its preview, the subscribers and the sendings", async ({ browser }) => {
      test.setTimeout(90_000);
      const cookie = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "مكتب التحرير",
        role: "editor",
      });
      await createTestArticle(db, {
        title: "مجلس البلدية يقرّ موازنة العام المقبل",
        content: "أقرّ المجلس الموازنة بالإجماع.",
      });
      const page = await (await contextWithSession(browser, server.url, cookie)).newPage();
      await page.goto("/dashboard/newsletter");
      await expect(page.getByRole("heading", { name: d.nextBrief })).toBeVisible();
      await page.getByLabel(d.opening).fill("صباح الخير. إليكم أبرز أخبار البلدة أمس.");
      await page.getByRole("button", { name: d.save }).click();
      await expect(page.getByText(d.saved)).toBeVisible();
      await expect(page.locator("[data-testid=brief-preview] iframe").first()).toBeVisible();
      const frame = page.frameLocator("[data-testid=brief-preview] iframe").first();
      await expect(frame.getByText("صباح الخير. إليكم أبرز أخبار البلدة أمس.")).toBeVisible();
      await page.getByRole("button", { name: d.sendTest }).click();
      await expect(page.getByText(d.testSent)).toBeVisible();
      const trial = await mailsTo("desk@example.com", 1);
      expect(trial.subject).toContain(m.mailTest.trim());
      await shoot(page, "dashboard");
    });
  });
}
