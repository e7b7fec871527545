import type { DB } from "~/server/db/db.server";
import { createBulkTransport, type BulkTransport } from "~/server/mail/bulk-transport.server";
import type { Clock } from "~/server/platform/clock.server";
import type { Config } from "~/server/platform/config.server";
import { logger } from "~/server/platform/logger.server";
import { roundLoop, type RoundLoop } from "~/server/platform/round-loop.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { sendDue } from "./send-round.server";
import { ensureNextBrief, finishSendings, prepareQueued, queueAlertMails, queueDueBriefs } from "./sendings.server";
import { forgetUnconfirmed } from "./subscribers.server";

/*
 * The newsletter's loop (decision 046), in the process that sends alerts (decision 043): each round
 * forgets addresses left unconfirmed, keeps the next brief's draft, queues what is due (a brief at its
 * hour, a mail per story alert), prepares it, and sends due deliveries through pooled connections.
 */

export type NewsletterOptions = {
  db: DB;
  clock: Clock;
  baseUrl: string;
  secret: string;
  /** null: nothing is sent (SMTP_URL unset); drafts and forgetting go on. */
  mail: Config["mail"];
  leaseMs: number;
  concurrency: number;
};

export type NewsletterSender = RoundLoop;

/** Forgetting runs at most this often by the site's clock. */
const FORGET_EVERY_MS = 60_000;

export function startNewsletterSender(options: NewsletterOptions, intervalMs: number): NewsletterSender {
  const { db, clock, baseUrl, mail } = options;
  let transport: { rate: number; open: BulkTransport } | undefined;
  let forgotAt = Number.NEGATIVE_INFINITY;
  const domain = mail ? ((/<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from).split("@")[1] ?? "localhost") : "localhost";

  const transportAt = (rate: number): BulkTransport | null => {
    if (!mail) return null;
    if (transport?.rate !== rate) {
      transport?.open.close();
      transport = { rate, open: createBulkTransport(mail, rate, Math.min(options.concurrency, 8)) };
    }
    return transport.open;
  };

  const work = async (stopped: () => boolean) => {
    const now = clock.now();
    if (now.getTime() - forgotAt >= FORGET_EVERY_MS) {
      forgotAt = now.getTime();
      const forgotten = await forgetUnconfirmed(db, now);
      if (forgotten > 0) logger.info({ forgotten }, "newsletter addresses never confirmed were forgotten");
    }
    const { settings } = await readSiteSettings(db);
    await ensureNextBrief(db, now, settings.newsletterHour);
    await queueDueBriefs(db, now);
    await queueAlertMails(db, now);
    const open = transportAt(settings.newsletterRate);
    if (!open) return;
    const prepared = await prepareQueued(db, baseUrl, now);
    if (prepared > 0) logger.info({ deliveries: prepared }, "a newsletter sending was prepared");
    const started = Date.now();
    const handled = await sendDue({ ...options, transport: open, domain }, stopped);
    if (handled > 0) logger.info({ handled, ms: Date.now() - started }, "newsletter mails handled");
    await finishSendings(db);
  };

  const loop = roundLoop(work, intervalMs, "the newsletter round failed");
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      transport?.open.close();
    },
  };
}
