import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestArticle } from "../../harness/articles";
import { startTestSite, type TestSite } from "../../harness/test-server";
import { startNewsletterSmtp, type NewsletterSmtp } from "../support/newsletter-mail";
import { afterNextBrief, confirmedSubscribers, fastNewsletter, moveClockTo } from "../support/newsletter";

/*
 * Each subscriber receives each mail once (decision 046): two instances sharing one send, and a sender
 * killed in the middle of one and started again. "Received" is what the mail server answered 250 to.
 */

let smtp: NewsletterSmtp;
let site: TestSite | undefined;
let db: DB;
let dir: string;
const offset = { ms: 0 };

beforeEach(async () => {
  smtp = await startNewsletterSmtp();
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-newsletter-once-"));
  offset.ms = 0;
});
afterEach(async () => {
  await db?.destroy();
  await site?.stop();
  site = undefined;
  await smtp.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `rate`: mails a second per instance, slow enough for a second instance to take a share. */
async function newsletterSite(instances: number, rate = 1000): Promise<TestSite> {
  const started = await startTestSite(instances, {
    SMTP_URL: smtp.url,
    MAIL_FROM: "Akhbar <news@akhbar.example>",
    TEST_CLOCK_FILE: path.join(dir, "clock"),
    SCHEDULER_INTERVAL_MS: "200",
    LOG_LEVEL: "info",
  });
  db = openDatabase(started.database.url);
  await fastNewsletter(db, rate);
  await createTestArticle(db, { title: "خبر النشرة", content: "نص الخبر" });
  return started;
}

const briefSent = async () =>
  Number(
    (
      await db
        .selectFrom("newsletter_sendings")
        .select((eb) => eb.fn.sum<number>("sent").as("sent"))
        .where("kind", "=", "brief")
        .executeTakeFirst()
    )?.sent ?? 0,
  );

function expectOneEach(emails: string[]) {
  const counts = new Map<string, number>();
  for (const mail of smtp.accepted) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  expect([...counts.keys()].sort()).toEqual([...emails].sort());
}

describe("exactly once", () => {
  it("two instances share one brief; every address receives one copy", { timeout: 120_000 }, async () => {
    site = await newsletterSite(2, 100);
    const emails = await confirmedSubscribers(db, 400);
    moveClockTo(path.join(dir, "clock"), afterNextBrief(offset.ms), offset);
    await vi.waitFor(() => expect(smtp.accepted.length).toBeGreaterThanOrEqual(400), {
      timeout: 60_000,
      interval: 100,
    });
    await vi.waitFor(async () => expect(await briefSent()).toBe(400), { timeout: 10_000, interval: 100 });
    expectOneEach(emails);
    const senders = site.servers.map((server) => /"msg":"newsletter mails handled"/.test(server.output()));
    expect(senders).toEqual([true, true]);
  });

  it("a sender killed mid-send leaves no mail lost or repeated once another starts", { timeout: 120_000 }, async () => {
    site = await newsletterSite(1);
    const emails = await confirmedSubscribers(db, 300);
    const first = site.servers[0]!;
    smtp.hold(100);
    moveClockTo(path.join(dir, "clock"), afterNextBrief(offset.ms), offset);
    await vi.waitFor(() => expect(smtp.held()).toBeGreaterThan(0), { timeout: 60_000, interval: 20 });
    // Every mail the server took is recorded: what is in flight now has no 250 yet.
    await vi.waitFor(async () => expect(await briefSent()).toBe(smtp.accepted.length), {
      timeout: 10_000,
      interval: 20,
    });
    process.kill(first.pid, "SIGKILL");
    await first.exited;
    smtp.release();
    expect(smtp.accepted.length).toBeLessThan(300);

    await site.startAnother();
    await vi.waitFor(() => expect(smtp.accepted.length).toBeGreaterThanOrEqual(300), {
      timeout: 60_000,
      interval: 100,
    });
    await vi.waitFor(async () => expect(await briefSent()).toBe(300), { timeout: 10_000, interval: 100 });
    expectOneEach(emails);
  });
});
