/**
 * npm run bench:newsletter: one morning brief to 50,000 confirmed subscribers (decision 046), through
 * the production server as `npm start` runs it (two workers and the sender process) on a temporary site
 * (SQLite, or TEST_DATABASE=postgres), to an SMTP server in this process that counts what it accepts.
 * Prints the time from the brief's hour (the site's clock moved to it) to the last mail accepted, mails
 * a second, and the sender process's resident memory each 5 s (flat when nothing grows per subscriber);
 * and readers' latency on the article page, 300 a second paced (as `bench:views` measures), before the send
 * and in its first 15 s.
 * The site's rate is set to its highest (1,000 a second). `-- 2000` sends to that many.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { NEWSLETTER_RATE_MAX, NEUTRAL_SETTINGS } from "~/lib/site-settings";
import { openDatabase } from "~/server/db/db.server";
import { briefMoment, nextBriefDay } from "~/server/newsletter/sendings.server";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";
import { createTestArticle } from "../../harness/articles";
import { residentMemory } from "../../harness/processes";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";
import { pacedLoadTest } from "./load";

const SUBSCRIBERS = Number(process.argv[2] ?? 50_000);
const MB = 1024 * 1024;
const READERS = { rate: 300, load: { connections: 32, seconds: 15, headers: { "accept-encoding": "br, gzip" } } };

async function countingSmtp(): Promise<{ url: string; accepted: () => number; stop: () => Promise<void> }> {
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted: () => accepted,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

ensureBuild();
const smtp = await countingSmtp();
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-newsletter-"));
const clockFile = path.join(dir, "clock");
const server = await startTestServer({
  WORKERS: "2",
  LOG_LEVEL: "info",
  SMTP_URL: smtp.url,
  MAIL_FROM: "Akhbar <news@akhbar.example>",
  TEST_CLOCK_FILE: clockFile,
  SCHEDULER_INTERVAL_MS: "500",
});
const db = openDatabase(server.env.DATABASE_URL);
try {
  await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, newsletterRate: NEWSLETTER_RATE_MAX }, null);
  const story = await createTestArticle(db, { title: "خبر النشرة الصباحية", content: "نص الخبر في النشرة." });
  const page = (await fetch(`${server.url}/news/${story.id}`)).url;
  const at = new Date().toISOString();
  for (let start = 0; start < SUBSCRIBERS; start += 1000) {
    const count = Math.min(1000, SUBSCRIBERS - start);
    await db
      .insertInto("newsletter_subscribers")
      .values(
        Array.from({ length: count }, (_, i) => ({
          email: `reader${start + i}@example.com`,
          brief: 1,
          status: "confirmed" as const,
          created_at: at,
          requested_at: at,
          confirmed_at: at,
          changed_at: at,
        })),
      )
      .execute();
  }
  const sender = server.senderPid();
  const hour = NEUTRAL_SETTINGS.newsletterHour;
  const brief = briefMoment(nextBriefDay(new Date(), hour), hour).getTime() + 1000;
  const memory: number[] = [];
  const quiet = await pacedLoadTest(page, READERS.rate, READERS.load);
  const started = performance.now();
  writeFileSync(clockFile, String(brief - Date.now()));
  const during = pacedLoadTest(page, READERS.rate, READERS.load);
  let lastSample = 0;
  while (smtp.accepted() < SUBSCRIBERS) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (performance.now() - lastSample >= 5000 && sender) {
      lastSample = performance.now();
      memory.push(Math.round(residentMemory(sender) / MB));
    }
    if (performance.now() - started > 15 * 60_000) throw new Error(`only ${smtp.accepted()} mails in 15 minutes`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`subscribers: ${SUBSCRIBERS}`);
  console.log(`from the brief's hour to the last mail accepted: ${seconds.toFixed(1)} s (target ≤ 180 s for 50,000)`);
  console.log(`mails a second: ${(SUBSCRIBERS / seconds).toFixed(0)} (the site's rate: ${NEWSLETTER_RATE_MAX})`);
  console.log(`sender process RSS every 5 s (MB): ${memory.join(", ") || "(sent within 5 s)"}`);
  const readers = [quiet, await during];
  const [before, sending] = readers.map(
    (r) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors`,
  );
  console.log(`readers, ${READERS.rate} a second on the article page: before ${before}; during the send ${sending}`);
  console.log(`p99 during the send: ${((100 * readers[1]!.p99) / readers[0]!.p99 - 100).toFixed(0)}% against before`);
} finally {
  await db.destroy();
  await server.stop();
  await smtp.stop();
  rmSync(dir, { recursive: true, force: true });
}
