import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newsletterMessages as m } from "~/lib/messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { createTestArticle, publishForm } from "../../harness/articles";
import { startTestServer, type TestServer } from "../../harness/test-server";
import {
  dkimKeyPair,
  dkimResults,
  parsedMail,
  startNewsletterSmtp,
  type NewsletterSmtp,
} from "../support/newsletter-mail";
import { afterNextBrief, confirmedSubscribers, fastNewsletter, moveClockTo } from "../support/newsletter";

/*
 * The newsletter through the real server and a real SMTP server: double opt-in without enumeration,
 * the morning brief at its hour by the site's clock (parsed by mailparser, DKIM checked by mailauth),
 * one-click unsubscribe, 4xx retried, 5xx bounced, unconfirmed addresses forgotten after 7 days.
 */

let server: TestServer;
let db: DB;
let smtp: NewsletterSmtp;
let dir: string;
let clockFile: string;
const offset = { ms: 0 };
const dkim = dkimKeyPair();

beforeAll(async () => {
  smtp = await startNewsletterSmtp();
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-newsletter-"));
  clockFile = path.join(dir, "clock");
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: "أخبار البلدة <news@akhbar.example>",
    DKIM_PRIVATE_KEY: dkim.privateKey.replace(/\n/g, "\\n"),
    DKIM_SELECTOR: "test2026",
    TEST_CLOCK_FILE: clockFile,
    SCHEDULER_INTERVAL_MS: "200",
  });
  db = openDatabase(server.env.DATABASE_URL);
  await fastNewsletter(db);
}, 120_000);
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await smtp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function signUp(email: string, fields: Record<string, string> = { brief: "on" }) {
  const body = new URLSearchParams({ email, ...fields });
  const response = await fetch(`${server.url}/newsletter`, {
    method: "POST",
    body,
    headers: { origin: server.url },
  });
  return { status: response.status, html: await response.text() };
}

/** The page as a reader reads it: its per-response nonces and the echoed address aside. */
const readable = (html: string, email: string) =>
  html
    .replace(/nonce="[^"]*"/g, "")
    .replaceAll(email, "ADDRESS")
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, "");

const linkOf = (text: string, pathPart: string) =>
  new RegExp(`https?://[^\\s"<>]+${pathPart}\\?t=[A-Za-z0-9_.-]+`).exec(text)?.[0];

async function waitForMail(to: string, count = 1) {
  await vi.waitFor(() => expect(smtp.mailsTo(to).length).toBeGreaterThanOrEqual(count), {
    timeout: 15_000,
    interval: 50,
  });
  return smtp.mailsTo(to)[count - 1]!;
}

async function confirmFromMail(email: string) {
  const mail = await parsedMail((await waitForMail(email)).raw);
  const link = linkOf(mail.text ?? "", "/newsletter/confirm")!;
  expect(link).toBeDefined();
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const token = new URL(link).searchParams.get("t")!;
  const confirmed = await fetch(`${server.url}/newsletter/confirm`, {
    method: "POST",
    body: new URLSearchParams({ t: token }),
    headers: { origin: server.url },
  });
  expect(await confirmed.text()).toContain(m.confirmedTitle);
}

/** A header's value as sent (mailparser turns List-* headers into objects). */
const headerOf = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((line) => line.key === name)
    ?.line.replace(/^[^:]+:\s*/, "")
    .replace(/\r?\n\s+/g, " ");

const statusOf = async (email: string) =>
  (await db.selectFrom("newsletter_subscribers").select("status").where("email", "=", email).executeTakeFirst())
    ?.status;

describe("the newsletter on one server", () => {
  it("signs up with double opt-in; a known address gets the same answer; nothing goes before confirming", async () => {
    const first = await signUp("reader@example.com");
    expect(first.status).toBe(200);
    expect(first.html).toContain(m.checkInbox);
    await confirmFromMail("reader@example.com");
    expect(await statusOf("reader@example.com")).toBe("confirmed");

    const again = await signUp("reader@example.com");
    const fresh = await signUp("stranger@example.com");
    expect(again.status).toBe(fresh.status);
    expect(readable(again.html, "reader@example.com")).toBe(readable(fresh.html, "stranger@example.com"));
    expect(await statusOf("stranger@example.com")).toBe("pending");

    const refused = await signUp("not an address");
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(m.emailInvalid);
    const none = await signUp("none@example.com", {});
    expect(none.status).toBe(400);
    expect(none.html).toContain(m.chooseOne);
  });

  it(
    "sends the morning brief at its hour: one RTL, DKIM-signed mail of two parts per confirmed subscriber",
    { timeout: 60_000 },
    async () => {
      const story = await createTestArticle(db, {
        title: "افتتاح المكتبة العامة في ساحة البلدة",
        content: "افتتحت البلدية المكتبة العامة الجديدة.",
      });
      moveClockTo(clockFile, afterNextBrief(offset.ms), offset);
      // The first was the confirmation.
      const received = await waitForMail("reader@example.com", 2);
      const mail = await parsedMail(received.raw);

      expect(received.raw.length).toBeLessThan(100 * 1024);
      expect(mail.subject).toContain("النشرة الصباحية");
      expect(mail.from?.value[0]?.address).toBe("news@akhbar.example");
      expect(mail.html).toContain('dir="rtl"');
      expect(mail.html).toContain("افتتاح المكتبة العامة في ساحة البلدة");
      expect(mail.text).toContain("افتتاح المكتبة العامة في ساحة البلدة");
      const storyLink = new RegExp(`${server.url}/news/${story.id}[^\\s"]*utm_source=newsletter`);
      expect(mail.html).toMatch(storyLink);
      expect(mail.text).toMatch(storyLink);
      const unsubscribe = headerOf(mail, "list-unsubscribe");
      expect(unsubscribe).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/newsletter\/one-click\?t=[\w.-]+>$/);
      expect(headerOf(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(mail.text).toContain(linkOf(mail.text ?? "", "/newsletter/preferences")!);
      expect(await dkimResults(received.raw, "test2026._domainkey.akhbar.example", dkim.record)).toEqual([
        { domain: "akhbar.example", selector: "test2026", result: "pass" },
      ]);
      const signed = headerOf(mail, "dkim-signature") ?? "";
      expect(signed.toLowerCase()).toContain("list-unsubscribe-post");

      expect(smtp.mailsTo("stranger@example.com").filter((sent) => sent.raw.includes("List-Unsubscribe-Post"))).toEqual(
        [],
      );
      await vi.waitFor(
        async () =>
          expect(
            await db
              .selectFrom("newsletter_sendings")
              .select(["status", "sent", "recipients"])
              .where("kind", "=", "brief")
              .where("status", "!=", "draft")
              .execute(),
          ).toEqual([{ status: "sent", sent: 1, recipients: 1 }]),
        { timeout: 10_000, interval: 50 },
      );
    },
  );

  it(
    "unsubscribes at once on a one-click POST with no cookie from anywhere; the next mail does not go to it",
    { timeout: 60_000 },
    async () => {
      const [stays, leaves] = await confirmedSubscribers(db, 2, { breaking: true }, "breaking");
      const editor = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "مكتب التحرير",
        role: "editor",
      });
      await fetch(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("انقطاع الكهرباء في الأحياء الشرقية", { category: "breaking", confirmAlert: "on" }),
        headers: { cookie: editor, origin: server.url },
      });
      const mail = await parsedMail((await waitForMail(leaves!)).raw);
      const target = /^<(.+)>$/.exec(headerOf(mail, "list-unsubscribe") ?? "")![1]!;
      const response = await fetch(target, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.provider.example" },
      });
      expect(response.status).toBe(200);
      expect(await statusOf(leaves!)).toBe("unsubscribed");

      await fetch(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("عودة التيار الكهربائي", { category: "breaking", confirmAlert: "on" }),
        headers: { cookie: editor, origin: server.url },
      });
      await waitForMail(stays!, 2);
      expect(smtp.mailsTo(leaves!)).toHaveLength(1);
      expect(smtp.mailsTo("reader@example.com")).toHaveLength(2);
    },
  );

  it(
    "retries a 4xx with back-off by the site's clock and bounces an address the server refuses with 5xx",
    { timeout: 60_000 },
    async () => {
      smtp.refuse("later@example.com", { code: 451, message: "mailbox busy", times: 1 });
      smtp.refuse("gone@example.com", { code: 550, message: "no such user" });
      await confirmedSubscribers(db, 1, { breaking: true }, "later");
      await db
        .updateTable("newsletter_subscribers")
        .set({ email: "later@example.com" })
        .where("email", "=", "later0@example.com")
        .execute();
      await confirmedSubscribers(db, 1, { breaking: true }, "gone");
      await db
        .updateTable("newsletter_subscribers")
        .set({ email: "gone@example.com" })
        .where("email", "=", "gone0@example.com")
        .execute();
      const editor = await signedInAs(db, server.site, {
        email: "desk2@example.com",
        username: "المحرر",
        role: "editor",
      });
      await fetch(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("إغلاق الطريق الساحلي", { category: "breaking", confirmAlert: "on" }),
        headers: { cookie: editor, origin: server.url },
      });
      await vi.waitFor(async () => expect(await statusOf("gone@example.com")).toBe("bounced"), {
        timeout: 15_000,
        interval: 50,
      });
      await vi.waitFor(
        async () =>
          expect(
            await db
              .selectFrom("newsletter_deliveries")
              .innerJoin("newsletter_subscribers", "newsletter_subscribers.id", "newsletter_deliveries.subscriber_id")
              .select(["attempts", "email"])
              .execute(),
          ).toEqual([{ attempts: 1, email: "later@example.com" }]),
        { timeout: 15_000, interval: 50 },
      );
      expect(smtp.mailsTo("later@example.com")).toEqual([]);
      moveClockTo(clockFile, new Date(Date.now() + offset.ms + 11_000), offset);
      await waitForMail("later@example.com");
      const story = await db
        .selectFrom("news")
        .select("id")
        .where("title", "=", "إغلاق الطريق الساحلي")
        .executeTakeFirstOrThrow();
      await vi.waitFor(async () =>
        expect(
          await db
            .selectFrom("newsletter_sendings")
            .select(["sent", "bounced", "refused", "status"])
            .where("article_id", "=", story.id)
            .executeTakeFirst(),
        ).toEqual({ sent: 2, bounced: 1, refused: 0, status: "sent" }),
      );
      expect(smtp.mailsTo("later@example.com")).toHaveLength(1);
      expect(smtp.mailsTo("gone@example.com")).toEqual([]);
    },
  );

  it(
    "forgets an address never confirmed seven days after its sign-up, by the site's clock",
    { timeout: 30_000 },
    async () => {
      expect(await statusOf("stranger@example.com")).toBe("pending");
      moveClockTo(clockFile, new Date(Date.now() + offset.ms + 8 * 24 * 3600_000), offset);
      await vi.waitFor(async () => expect(await statusOf("stranger@example.com")).toBeUndefined(), {
        timeout: 15_000,
        interval: 100,
      });
      expect(await statusOf("reader@example.com")).toBe("confirmed");
    },
  );
});
