import { availableParallelism } from "node:os";
import { breakingChange } from "~/server/breaking/changes.server";
import { mailReviewSubmission, reviewSubmissions, type ReviewMailing } from "~/server/news/review-mail.server";
import { startScheduler, type Scheduler } from "~/server/news/scheduling.server";
import { scheduleTrashPurge } from "~/server/news/trash-purge.server";
import { createOutboxFollower } from "~/server/outbox/follower.server";
import { changesContent, type OutboxEvent } from "~/server/outbox/outbox.server";
import type { Readiness } from "~/server/http/health-routes.server";
import { startPushSender, type PushSender } from "~/server/push/sender.server";
import { startNewsletterSender, type NewsletterSender } from "~/server/newsletter/sender.server";
import { logger } from "~/server/platform/logger.server";
import { readiness } from "./readiness.server";
import type { Site } from "./site.server";

/** What a process runs beside its requests: the outbox follower, the scheduler, the view buffer's writes, the daily trash purge, and the push sender unless the sender process runs it. */
export type Background = { start: () => Promise<void>; stop: () => Promise<void>; readiness: () => Promise<Readiness> };

/** Requests in flight per process, a delivery thread per core, how long a push service keeps an undelivered alert, how long a claim holds unrenewed (decisions 037, 043). */
const PUSH_SENDING = { concurrency: 64, threads: availableParallelism(), ttlSeconds: 6 * 3600, leaseMs: 10_000 };

/** Newsletter mails in flight per process, how long a claim holds unrenewed (decision 046). */
const NEWSLETTER_SENDING = { concurrency: 8, leaseMs: 30_000 };

function startSiteNewsletter(site: Site): NewsletterSender {
  return startNewsletterSender(
    {
      db: site.db,
      clock: site.clock,
      baseUrl: site.config.baseUrl,
      secret: site.config.authSecret,
      mail: site.config.mail,
      ...NEWSLETTER_SENDING,
    },
    site.config.schedulerIntervalMs,
  );
}

/** A story published anywhere, or a live update posted as an alert, may have queued an alert. */
function mayHaveQueuedAlert(events: OutboxEvent[]): boolean {
  return events.some(
    (event) =>
      event.after?.status === "published" || (event.coverage?.type === "posted" && event.coverage.update.alert),
  );
}

function startSiteSender(site: Site): PushSender {
  const loopback = site.config.testLoopbackPush;
  return startPushSender(
    {
      db: site.batchWriter.db,
      clock: site.clock,
      baseUrl: site.config.baseUrl,
      loopback,
      secret: site.config.authSecret,
      ...PUSH_SENDING,
    },
    site.config.schedulerIntervalMs,
  );
}

/** Mails editors about each story sent to review among `events`, off the request path; the claim makes it once across processes. */
function mailReviewSubmissions(mailing: ReviewMailing, events: OutboxEvent[], now: Date): void {
  for (const event of reviewSubmissions(events)) {
    mailReviewSubmission(mailing, event, now).catch((error: unknown) =>
      logger.error({ err: error, eventId: event.id }, "the review mail was not sent"),
    );
  }
}

/**
 * The follower empties the site's caches of content on every change any process made (the one place
 * that does: the shell's regions and lists' HTML go with the read cache's objects they are kept by),
 * and sends breaking-list changes to this process's open streams, and presence notices to its map of
 * who has which edit form open (they change no content: the caches stay), and with mail set up, tells
 * editors of stories sent to review; the scheduler publishes scheduled articles when their time comes.
 */
export function siteBackground(site: Site, { sendsAlerts }: { sendsAlerts: boolean }): Background {
  let pushSender: PushSender | undefined;
  let newsletter: NewsletterSender | undefined;
  const reviewMailing = site.mailer && { db: site.db, mailer: site.mailer, baseUrl: site.config.baseUrl };
  const consume = (events: OutboxEvent[]) => {
    site.editing.presence.consume(events);
    if (reviewMailing) mailReviewSubmissions(reviewMailing, events, site.clock.now());
    if (mayHaveQueuedAlert(events)) {
      pushSender?.wake();
      newsletter?.wake();
    }
    if (!events.some(changesContent)) return;
    site.pageCache.clear();
    site.readCache.clear();
    for (const event of events) {
      const live = breakingChange(event);
      if (live) site.breakingStreams.channel.publish(live.id, live.event);
      if (event.coverage && event.articleId) site.coverage.channel.publish(event.id, event.coverage, event.articleId);
    }
  };
  const follower = createOutboxFollower(site.db, site.config.databaseUrl, consume);
  let scheduler: Scheduler | undefined;
  let stopTrashPurge: (() => void) | undefined;
  return {
    /** Before the server listens: from the newest event on; then the scheduler's first claim runs. */
    start: async () => {
      await follower.start();
      site.editing.presence.start();
      scheduler ??= await startScheduler(site.db, site.config.schedulerIntervalMs, site.clock);
      stopTrashPurge ??= scheduleTrashPurge(site.newsroom, site.clock);
      site.views.start();
      if (sendsAlerts) pushSender ??= startSiteSender(site);
      if (sendsAlerts) newsletter ??= startSiteNewsletter(site);
    },
    /** At shutdown, before the database closes. */
    stop: async () => {
      await site.views.stop();
      stopTrashPurge?.();
      stopTrashPurge = undefined;
      await pushSender?.stop();
      pushSender = undefined;
      await newsletter?.stop();
      newsletter = undefined;
      await scheduler?.stop();
      await follower.stop();
      site.editing.presence.stop();
    },
    readiness: () => readiness(site.db, follower),
  };
}

/**
 * The sender process's work (decision 043): the push sender and the newsletter (decision 046), woken as soon as the outbox shows
 * a change that may have queued an alert, so the workers that serve pages never send.
 */
export function senderBackground(site: Site): Background {
  let pushSender: PushSender | undefined;
  let newsletter: NewsletterSender | undefined;
  const follower = createOutboxFollower(site.db, site.config.databaseUrl, (events) => {
    if (mayHaveQueuedAlert(events)) {
      pushSender?.wake();
      newsletter?.wake();
    }
  });
  return {
    start: async () => {
      await follower.start();
      pushSender ??= startSiteSender(site);
      newsletter ??= startSiteNewsletter(site);
    },
    stop: async () => {
      await pushSender?.stop();
      pushSender = undefined;
      await newsletter?.stop();
      newsletter = undefined;
      await follower.stop();
    },
    readiness: () => readiness(site.db, follower),
  };
}
