/**
 * Editors hear that a story waits for review: a notice on the dashboard with the count and a link to
 * the stories, and with SMTP_URL a mail to every active editor and admin but the author, one per
 * submission, sent once by two instances that both hear the submission's outbox event.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { createTestAccount } from "../../harness/accounts";
import { get, post, type Session } from "../../harness/http-client";
import { basedOn, publishForm, storedVersion } from "../../harness/articles";
import { startSmtpServer, type SmtpServer } from "../support/smtp";
import { startTwoInstancesAndDb, stopServerAndDb, type TwoInstancesAndDb } from "../support/server-and-db";
import { sessionCookie } from "../../harness/accounts";

let smtp: SmtpServer;
let sites: TwoInstancesAndDb;
let db: DB;
let author: Session;
let editor: Session;
const RECIPIENTS = ["editor@example.com", "second-editor@example.com", "admin@example.com"];

/** Signs `email` in on the site's database (its account made first). */
async function member(email: string, username: string, role: "author" | "editor" | "admin" | "user"): Promise<Session> {
  const auth = sites.a.site;
  await createTestAccount(db, auth, { email, username, role });
  return { cookie: await sessionCookie(db, auth, email) };
}

/** The mails about `title` received so far, by recipient. */
const mailsAbout = (title: string) =>
  smtp.received
    .filter((mail) => mail.text.includes(title))
    .flatMap((mail) => mail.to)
    .sort();

/** Until every claim on a mail about `id` has been sent: what was going to arrive has. */
async function mailsSettled(id: string, claims: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const rows = await db.selectFrom("review_mails").select("sent_at").where("news_id", "=", id).execute();
      expect(rows).toHaveLength(claims);
      expect(rows.every((row) => row.sent_at !== null)).toBe(true);
    },
    { timeout: 10_000, interval: 50 },
  );
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  sites = await startTwoInstancesAndDb({ SMTP_URL: smtp.url, MAIL_FROM: "Akhbar <newsroom@example.com>" });
  db = sites.db;
  author = await member("author@example.com", "كاتبة المراجعة", "author");
  editor = await member("editor@example.com", "محررة المراجعة", "editor");
  await member("second-editor@example.com", "محرر ثان", "editor");
  await member("admin@example.com", "مديرة", "admin");
  await member("reader@example.com", "قارئ", "user");
  await member("gone@example.com", "محرر سابق", "editor");
  await db
    .updateTable("user")
    .set({ disabledAt: new Date().toISOString() })
    .where("email", "=", "gone@example.com")
    .execute();
});
afterAll(async () => {
  await stopServerAndDb({ site: sites?.site, db });
  await smtp?.stop();
});

describe("a story sent to review", () => {
  it("is mailed once to every active editor and admin but its author, with its title and edit link, by one of two instances", async () => {
    const title = "خبر ينتظر المراجعة الأولى";
    const created = await post(`${sites.a.url}/api/news`, publishForm(title, { status: "review" }), author);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const mail = await smtp.mailTo("editor@example.com");
    expect(mail.text).toContain(title);
    expect(mail.text).toContain("كاتبة المراجعة");
    // Whichever instance claims the mail links to its own address (a real site's instances share one).
    expect([sites.a, sites.b].some((site) => mail.text.includes(`${site.env.BASE_URL}/edit-news/${id}`))).toBe(true);
    await mailsSettled(id, 1);
    // mailTo took the editor's mail out of those received.
    expect([...mail.to, ...mailsAbout(title)].sort()).toEqual([...RECIPIENTS].sort());
  });

  it("mails again when sent back and resubmitted, not when edited while it waits", async () => {
    const title = "خبر يعود إلى المراجعة";
    const created = await post(`${sites.b.url}/api/news`, publishForm(title, { status: "review" }), author);
    const { id } = (await created.json()) as { id: string };
    await mailsSettled(id, 1);
    const edited = await fetch(`${sites.a.url}/api/news/${id}`, {
      method: "PUT",
      body: basedOn(await storedVersion(db, id), publishForm(`${title} بعد تصحيح`, { status: "review" })),
      headers: { cookie: author.cookie },
    });
    expect(edited.status).toBe(200);
    const sentBack = await post(`${sites.a.url}/edit-news/${id}/send-back`, { note: "أضيفي المصدر" }, editor);
    expect(sentBack.status).toBe(302);
    const again = await fetch(`${sites.b.url}/api/news/${id}`, {
      method: "PUT",
      body: basedOn(await storedVersion(db, id), publishForm(`${title} مع المصدر`, { status: "review" })),
      headers: { cookie: author.cookie },
    });
    expect(again.status).toBe(200);
    await mailsSettled(id, 2);
    expect(mailsAbout(title)).toEqual([...RECIPIENTS, ...RECIPIENTS].sort());
    expect(mailsAbout(`${title} مع المصدر`)).toEqual([...RECIPIENTS].sort());
  });

  it("is counted on editors' dashboard with a link to the stories waiting; authors see no count", async () => {
    const waiting = await db.selectFrom("news").select("id").where("status", "=", "review").execute();
    const html = await (await get(`${sites.b.url}/dashboard`, editor)).text();
    const notice = html.slice(html.indexOf('data-testid="review-waiting"'));
    expect(notice).toContain(newsroomMessages.reviewWaitingCount);
    expect(notice).toContain(waiting.length.toLocaleString("ar-LB"));
    expect(notice).toContain('href="/dashboard?status=review"');
    expect(await (await get(`${sites.b.url}/dashboard`, author)).text()).not.toContain('data-testid="review-waiting"');
  });
});
