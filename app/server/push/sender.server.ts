import webpush from "web-push";
import { sql } from "kysely";
import { pathOf } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { getArticle } from "~/server/news/articles-read.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { nextTakeable, takeLease } from "./claims.server";
import { DeliveryThread, type DeliveryAnswer } from "./delivery-thread.server";
import { openToken, payloadWithToken } from "./open-tokens.server";
import { backoffMs, createOutcomeWriter, outcomeOf, type ClaimedDelivery } from "./outcomes.server";
import { siteVapidKeys, type VapidKeys } from "./vapid-keys.server";

/*
 * Sending alerts (decision 037). An alert's deliveries are made once (one per matching subscription,
 * in one transaction with the alert's payload); each process that sends (decision 043) then claims
 * a few due deliveries at a time under a lease it renews (claims.server), has its delivery threads
 * encrypt and send them with bounded concurrency, and writes their outcomes together as they come
 * (outcomes.server), deleting each delivery and counting it on the alert. A round gives back what it
 * did not send; a dead sender's lease lapses and its deliveries are taken again.
 */

export type PushPayload = { alertId: number; title: string; body: string; url: string; image: string | null; icon: string; tag: string };

export type SenderOptions = {
  db: DB;
  clock: Clock;
  baseUrl: string;
  /** Requests in flight at once from this process. */
  concurrency: number;
  /** Delivery threads, the requests in flight shared among them. */
  threads: number;
  /** How long a push service keeps an undelivered alert. */
  ttlSeconds: number;
  /** How long a claim holds unrenewed: a dead sender's deliveries are taken again after at most this. */
  leaseMs: number;
  /** Tests only (TEST_LOOPBACK_PUSH): also send to this machine, where their push service runs. */
  loopback: boolean;
  /** Keys each delivery's open token (open-tokens.server). */
  secret: string;
};

const VAPID_LIFETIME_S = 12 * 3600;
const BODY_LENGTH = 160;
const REQUEST_TIMEOUT_MS = 15_000;
/** Deliveries claimed at once, in requests in flight: no more than the sender can start soon, the rest left to other senders. */
const CLAIMED_PER_SLOT = 2;
/** After the moment a claim lapses, so that it has when the next round looks. */
const LAPSE_MARGIN_MS = 50;
const ALERTS_KEPT = 100;
/** The delivery thread's niceness: with the CPU short, pages come first and sending takes about a tenth. */
const DELIVERY_THREAD_NICE = 10;

/** The Topic header (RFC 8030: at most 32 URL-safe characters): a newer alert of the category replaces one still undelivered. */
export function topicOf(category: string): string {
  return `akhbar-${category}`.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32);
}

function absolute(baseUrl: string, path: string): string {
  return new URL(path, `${baseUrl}/`).toString();
}

/** The VAPID subject: the site's contact email, else BASE_URL when it is https, else a mailto at its host. */
export function vapidSubject(contactEmail: string, baseUrl: string): string {
  if (contactEmail) return `mailto:${contactEmail}`;
  const url = new URL(baseUrl);
  return url.protocol === "https:" ? url.origin : `mailto:webmaster@${url.hostname}`;
}

/** A live update sent as an alert (decision 040): its story and its text; null once deleted. */
async function liveUpdateOfAlert(db: DB, updateId: string): Promise<{ id: string; newsId: string; text: string } | null> {
  const row = await db.selectFrom("live_updates").select(["id", "news_id", "text"]).where("id", "=", updateId).executeTakeFirst();
  return row ? { id: row.id, newsId: row.news_id, text: row.text } : null;
}

/**
 * Makes the deliveries of alerts that have none yet: each alert's payload and subscriptions matched
 * in one conditional transaction, so two processes doing this at once make them once.
 */
export async function prepareAlerts(db: DB, baseUrl: string, now: Date): Promise<number> {
  const waiting = await db.selectFrom("push_alerts").select(["id", "article_id", "live_update_id"]).where("payload", "is", null).orderBy("id").limit(20).execute();
  if (waiting.length === 0) return 0;
  const { settings } = await readSiteSettings(db);
  let made = 0;
  for (const alert of waiting) {
    const id = Number(alert.id);
    const update = alert.live_update_id ? await liveUpdateOfAlert(db, alert.live_update_id) : null;
    const article = await getArticle(db, update?.newsId ?? alert.article_id);
    const payload: PushPayload | null = article && (!alert.live_update_id || update) && {
      alertId: id,
      title: article.title,
      body: (update?.text ?? (article.story.standfirst || article.content)).replace(/\s+/g, " ").trim().slice(0, BODY_LENGTH),
      url: update ? `${pathOf(article)}#update-${update.id}` : pathOf(article),
      image: article.image ? absolute(baseUrl, article.image) : null,
      icon: absolute(baseUrl, settings.images.icon192 ?? "/icon-192.png"),
      tag: update ? `live-${update.id}` : `news-${article.id}`,
    };
    made += await db.transaction().execute(async (trx) => {
      const category = article?.category ?? "breaking";
      const claimed = await trx
        .updateTable("push_alerts")
        .set({ payload: JSON.stringify(payload ?? {}), category })
        .where("id", "=", id)
        .where("payload", "is", null)
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n || !payload) return 0;
      const count = await insertDeliveries(trx, id, category, now);
      await trx.updateTable("push_alerts").set({ sent: count }).where("id", "=", id).execute();
      return count;
    });
  }
  return made;
}

async function insertDeliveries(trx: DB, alertId: number, category: string, now: Date): Promise<number> {
  const postgres = dialectName(trx) === "postgres";
  const at = postgres ? sql`cast(${now.toISOString()} as timestamptz)` : sql`${now.toISOString()}`;
  const id = postgres ? sql`cast(${alertId} as bigint)` : sql`${alertId}`;
  const matching = category === "breaking" ? sql`` : sql`where categories like ${`%"${category}"%`}`;
  await sql`insert into push_deliveries (alert_id, endpoint, due_at) select ${id}, endpoint, ${at} from push_subscriptions ${matching}`.execute(trx);
  const row = await trx.selectFrom("push_deliveries").select((eb) => eb.fn.countAll().as("n")).where("alert_id", "=", alertId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

type Alert = { payload: string; urgency: "high" | "normal"; topic: string };

/** At most `size` held at once: `take` waits for a free one; `idle` resolves once none is held. */
function slots(size: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  const idle: (() => void)[] = [];
  return {
    take: async (): Promise<void> => {
      while (held >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      held++;
    },
    give: (): void => {
      held--;
      waiting.shift()?.();
      if (held === 0) for (const resolve of idle.splice(0)) resolve();
    },
    idle: (): Promise<void> => (held === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve))),
  };
}

/**
 * One process's sending: the alerts' payloads and the VAPID headers kept while it runs; messages
 * encrypted and sent by threads of their own, outcomes written together as they come.
 */
export function createSender(options: SenderOptions) {
  const { db, clock, baseUrl, concurrency, threads, ttlSeconds, leaseMs, loopback, secret } = options;
  const alerts = new Map<number, Alert>();
  const vapidHeaders = new Map<string, { header: string; until: number }>();
  const pool = Array.from({ length: threads }, () => new DeliveryThread({ sockets: concurrency, timeoutMs: REQUEST_TIMEOUT_MS, nice: DELIVERY_THREAD_NICE, loopback }));
  let turn = 0;
  const nextThread = () => pool[turn++ % pool.length]!;
  const closeThreads = async () => void (await Promise.all(pool.map((thread) => thread.close())));
  const outcomes = createOutcomeWriter(db);
  let keys: VapidKeys | undefined;
  let subject = "";

  /** The alerts of `ids` not known yet, read in one query. */
  async function loadAlerts(ids: number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !alerts.has(id));
    if (missing.length === 0) return;
    if (alerts.size + missing.length > ALERTS_KEPT) alerts.clear();
    const rows = await db.selectFrom("push_alerts").select(["id", "payload", "category"]).where("id", "in", missing).execute();
    for (const row of rows) {
      if (!row.payload) continue;
      const category = row.category ?? "breaking";
      alerts.set(Number(row.id), { payload: row.payload, urgency: category === "breaking" ? "high" : "normal", topic: topicOf(category) });
    }
  }

  function authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const nowS = Math.floor(Date.now() / 1000);
    const cached = vapidHeaders.get(audience);
    if (cached && cached.until > nowS) return cached.header;
    const { Authorization } = webpush.getVapidHeaders(audience, subject, keys!.publicKey, keys!.privateKey, "aes128gcm", nowS + VAPID_LIFETIME_S);
    vapidHeaders.set(audience, { header: Authorization, until: nowS + VAPID_LIFETIME_S / 2 });
    return Authorization;
  }

  /**
   * Sends one claimed delivery and records its outcome: "recorded" while the claim was still its own,
   * "lost" when a sender that stalled past the lease finds another took it, "unstarted" when its
   * thread left it for another sender.
   */
  async function deliver(delivery: ClaimedDelivery, subscription: { p256dh: string; auth: string } | undefined): Promise<Handling> {
    const alert = alerts.get(delivery.alert_id);
    if (!alert || !subscription) return (await outcomes.record(delivery, "removed")) ? "recorded" : "unstarted";
    const payload = payloadWithToken(alert.payload, openToken(secret, delivery.alert_id, delivery.id));
    // A thread starved of CPU past half the lease leaves the job: the claim, given back or lapsed, goes to another sender.
    const startBy = Date.now() + leaseMs / 2;
    const answer = await nextThread().deliver({ endpoint: delivery.endpoint, ...subscription, ...alert, payload, ttlSeconds, authorization: authorization(delivery.endpoint), startBy });
    if ("notStarted" in answer) return "unstarted";
    return handlingOf(await settle(delivery, answer));
  }

  async function settle(delivery: ClaimedDelivery, answer: Exclude<DeliveryAnswer, { notStarted: true }>): Promise<boolean> {
    if ("refused" in answer) {
      logger.warn({ reason: answer.refused, alert: delivery.alert_id }, "a push subscription's endpoint is not a push service on the internet: removed, nothing sent");
      return outcomes.record(delivery, "removed");
    }
    if ("unencryptable" in answer) {
      logger.warn({ reason: answer.unencryptable, alert: delivery.alert_id }, "a push subscription's keys cannot be encrypted to: removed, nothing sent");
      return outcomes.record(delivery, "removed");
    }
    if ("error" in answer) {
      const retryAt = new Date(clock.now().getTime() + backoffMs(delivery.attempts));
      if (!answer.sent) {
        logger.warn({ err: answer.error, alert: delivery.alert_id }, "a push delivery failed to reach its service");
        return outcomes.record(delivery, { retryAt });
      }
      logger.warn({ err: answer.error, alert: delivery.alert_id, unanswered: delivery.unanswered + 1 }, "a push service took a message and did not answer: it may have it; sent again at most once");
      return outcomes.record(delivery, { retryAt, unanswered: true });
    }
    return outcomes.record(delivery, outcomeOf(answer.status, answer.retryAfter, delivery.attempts, clock.now()));
  }

  /**
   * Sends every delivery due now, claimed a batch at a time under one lease, until none is due or
   * `stopping()`; then gives back what it claimed and did not send. Returns how many it handled (and
   * of those sent, how many another sender had taken meanwhile) and
   * when a delivery it could not take becomes takeable. At most `concurrency` are unsettled at once,
   * from the request until the outcome's commit: no more can be sent twice if the process dies. A
   * request starts only while the lease is renewed on time, so no two senders send a delivery at once
   * unless one stalls for longer than a lease with a request in flight.
   */
  async function sendDue(stopping: () => boolean = () => false): Promise<{ handled: number; lost: number; next: Date | null }> {
    const now = clock.now();
    await prepareAlerts(db, baseUrl, now);
    keys ??= await siteVapidKeys(db, now);
    if (!subject) subject = vapidSubject((await readSiteSettings(db)).settings.contact.email, baseUrl);
    const unsettled = slots(concurrency);
    const lease = takeLease(db, clock, leaseMs);
    let failure: { error: unknown } | undefined;
    let handled = 0;
    let lost = 0;
    try {
      while (!stopping() && !failure && lease.fresh()) {
        const batch = await lease.claim(concurrency * CLAIMED_PER_SLOT);
        if (batch.length === 0) break;
        await loadAlerts(batch.map((delivery) => delivery.alert_id));
        const endpoints = [...new Set(batch.map((delivery) => delivery.endpoint))];
        const rows = await db.selectFrom("push_subscriptions").select(["endpoint", "p256dh", "auth"]).where("endpoint", "in", endpoints).execute();
        const keysOf = new Map(rows.map((row) => [row.endpoint, { p256dh: row.p256dh, auth: row.auth }]));
        for (const delivery of batch) {
          await unsettled.take();
          if (stopping() || failure || !lease.fresh()) {
            unsettled.give();
            continue;
          }
          deliver(delivery, keysOf.get(delivery.endpoint))
            .then((handling) => {
              if (handling === "recorded") handled++;
              if (handling === "lost") lost++;
            })
            .catch((error: unknown) => void (failure ??= { error }))
            .finally(unsettled.give);
        }
      }
    } finally {
      await unsettled.idle();
      try {
        await lease.release();
      } finally {
        // The threads and their connections live while a send runs, not between sends.
        await closeThreads();
      }
    }
    if (failure) throw failure.error;
    return { handled, lost, next: await nextTakeable(db) };
  }

  return { sendDue, close: closeThreads };
}

type Handling = "recorded" | "lost" | "unstarted";
const handlingOf = (held: boolean): Handling => (held ? "recorded" : "lost");

export type PushSender = { wake: () => void; stop: () => Promise<void> };

/**
 * Every process runs one: a round at start, then one when woken (an alert was queued), when a
 * delivery it could not take becomes takeable (another sender's claim lapses, a retry is due), or
 * after `intervalMs` at most.
 */
export function startPushSender(options: SenderOptions, intervalMs: number): PushSender {
  const sender = createSender(options);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const round = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    const started = Date.now();
    let wait = intervalMs;
    running = sender
      .sendDue(() => stopped)
      .then(({ handled, lost, next }) => {
        if (handled > 0) logger.info({ handled, ms: Date.now() - started }, "push deliveries handled");
        if (lost > 0) logger.warn({ lost }, "push deliveries sent by a sender that stalled past its lease, also sent by the sender that took them");
        if (next) wait = Math.max(0, Math.min(intervalMs, next.getTime() - options.clock.now().getTime() + LAPSE_MARGIN_MS));
      })
      .catch((error: unknown) => logger.error({ err: error }, "sending push alerts failed"))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          round();
        } else timer = setTimeout(round, wait).unref();
      });
  };
  round();
  return {
    wake: round,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await sender.close();
    },
  };
}
