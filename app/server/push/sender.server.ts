import webpush from "web-push";
import { sql } from "kysely";
import { pathOf } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { getArticle } from "~/server/news/articles-read.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { siteVapidKeys, type VapidKeys } from "./vapid-keys.server";

/*
 * Sending alerts (decision 037). An alert's deliveries are made once (one per matching subscription,
 * in one transaction with the alert's payload); every process then claims due deliveries for a while,
 * sends them with bounded concurrency and records each outcome in its own transaction, deleting the
 * delivery and counting it on the alert. A claim that lapses (its process stopped) is taken again.
 */

export type PushPayload = { alertId: number; title: string; body: string; url: string; image: string | null; icon: string; tag: string };

export type SenderOptions = {
  db: DB;
  clock: Clock;
  baseUrl: string;
  /** Requests in flight at once from this process. */
  concurrency: number;
  /** How long a push service keeps an undelivered alert. */
  ttlSeconds: number;
  /** How long a claim holds before another process may take the delivery. */
  claimMs: number;
};

const MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 3_600_000;
const VAPID_LIFETIME_S = 12 * 3600;
const BODY_LENGTH = 160;
const REQUEST_TIMEOUT_MS = 15_000;
const ALERTS_KEPT = 100;

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

/**
 * Makes the deliveries of alerts that have none yet: each alert's payload and subscriptions matched
 * in one conditional transaction, so two processes doing this at once make them once.
 */
export async function prepareAlerts(db: DB, baseUrl: string, now: Date): Promise<number> {
  const waiting = await db.selectFrom("push_alerts").select(["id", "article_id"]).where("payload", "is", null).orderBy("id").limit(20).execute();
  if (waiting.length === 0) return 0;
  const { settings } = await readSiteSettings(db);
  let made = 0;
  for (const alert of waiting) {
    const id = Number(alert.id);
    const article = await getArticle(db, alert.article_id);
    const payload: PushPayload | null = article && {
      alertId: id,
      title: article.title,
      body: article.story.standfirst || article.content.replace(/\s+/g, " ").trim().slice(0, BODY_LENGTH),
      url: pathOf(article),
      image: article.image ? absolute(baseUrl, article.image) : null,
      icon: absolute(baseUrl, settings.images.icon192 ?? "/icon-192.png"),
      tag: `news-${article.id}`,
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

type Claimed = { id: number; alert_id: number; endpoint: string; attempts: number; claimed_until: string };

/** Takes up to `limit` due deliveries until `until`; no other process takes them meanwhile. */
async function claimDeliveries(db: DB, now: Date, until: Date, limit: number): Promise<Claimed[]> {
  const postgres = dialectName(db) === "postgres";
  const at = now.toISOString();
  const { rows } = await sql<Claimed>`update push_deliveries set claimed_until = ${until.toISOString()}
    where id in (select id from push_deliveries where due_at <= ${at} and (claimed_until is null or claimed_until <= ${at})
      order by due_at, id limit ${limit} ${postgres ? sql`for update skip locked` : sql``})
    returning id, alert_id, endpoint, attempts, claimed_until`.execute(db);
  return rows.map((row) => ({ ...row, id: Number(row.id), alert_id: Number(row.alert_id), attempts: Number(row.attempts) }));
}

type Outcome = "delivered" | "removed" | "failed" | { retryAt: Date };

/** Records a delivery's outcome if this process still holds its claim: the delivery goes and its alert counts it, or it waits for a retry. */
async function recordOutcome(db: DB, delivery: Claimed, outcome: Outcome): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (typeof outcome === "object" && delivery.attempts + 1 < MAX_ATTEMPTS) {
      await trx
        .updateTable("push_deliveries")
        .set((eb) => ({ attempts: eb("attempts", "+", 1), due_at: outcome.retryAt.toISOString(), claimed_until: null }))
        .where("id", "=", delivery.id)
        .where("claimed_until", "=", delivery.claimed_until)
        .execute();
      return;
    }
    const gone = await trx.deleteFrom("push_deliveries").where("id", "=", delivery.id).where("claimed_until", "=", delivery.claimed_until).executeTakeFirst();
    if (gone.numDeletedRows === 0n) return;
    const counted = typeof outcome === "object" ? "failed" : outcome;
    if (counted === "removed") await trx.deleteFrom("push_subscriptions").where("endpoint", "=", delivery.endpoint).execute();
    await trx
      .updateTable("push_alerts")
      .set((eb) => ({ [counted]: eb(counted, "+", 1) }))
      .where("id", "=", delivery.alert_id)
      .execute();
  });
}

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempts);
}

type Alert = { payload: string; urgency: "high" | "normal"; topic: string };

/** One process's sending: the alerts' payloads and the VAPID headers kept while it runs. */
export function createSender(options: SenderOptions) {
  const { db, clock, baseUrl, concurrency, ttlSeconds, claimMs } = options;
  const alerts = new Map<number, Alert>();
  const vapidHeaders = new Map<string, { header: string; until: number }>();
  let keys: VapidKeys | undefined;
  let subject = "";

  async function alertOf(id: number): Promise<Alert | null> {
    const known = alerts.get(id);
    if (known) return known;
    const row = await db.selectFrom("push_alerts").select(["payload", "category", "kind"]).where("id", "=", id).executeTakeFirst();
    if (!row?.payload) return null;
    const category = row.category ?? "breaking";
    const alert: Alert = { payload: row.payload, urgency: category === "breaking" ? "high" : "normal", topic: topicOf(category) };
    if (alerts.size >= ALERTS_KEPT) alerts.clear();
    alerts.set(id, alert);
    return alert;
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

  async function deliver(delivery: Claimed, keysOf: Map<string, { p256dh: string; auth: string }>): Promise<void> {
    const alert = await alertOf(delivery.alert_id);
    const subscription = keysOf.get(delivery.endpoint);
    if (!alert || !subscription) return recordOutcome(db, delivery, "removed");
    let outcome: Outcome;
    try {
      const request = webpush.generateRequestDetails({ endpoint: delivery.endpoint, keys: subscription }, alert.payload, {
        vapidDetails: null,
        TTL: ttlSeconds,
        urgency: alert.urgency,
        topic: alert.topic,
        headers: { Authorization: authorization(delivery.endpoint) },
      } as unknown as webpush.RequestOptions);
      const response = await fetch(delivery.endpoint, {
        method: "POST",
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: new Uint8Array(request.body as Buffer),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      outcome = outcomeOf(response.status, response.headers.get("retry-after"), delivery.attempts, clock.now());
    } catch (error) {
      logger.warn({ err: error, alert: delivery.alert_id }, "a push delivery failed to reach its service");
      outcome = { retryAt: new Date(clock.now().getTime() + backoffMs(delivery.attempts)) };
    }
    await recordOutcome(db, delivery, outcome);
  }

  /**
   * Sends every delivery due now, a claimed batch at a time, until none is due or `stopping()`; returns
   * how many it handled. A request that could outlast its claim is not started: the claim lapses and
   * the delivery is taken again, so no two processes ever send it at once.
   */
  async function sendDue(stopping: () => boolean = () => false): Promise<number> {
    const now = clock.now();
    await prepareAlerts(db, baseUrl, now);
    keys ??= await siteVapidKeys(db, now);
    if (!subject) subject = vapidSubject((await readSiteSettings(db)).settings.contact.email, baseUrl);
    let handled = 0;
    while (!stopping()) {
      const start = clock.now();
      const batch = await claimDeliveries(db, start, new Date(start.getTime() + claimMs), concurrency * 8);
      if (batch.length === 0) break;
      const endpoints = [...new Set(batch.map((delivery) => delivery.endpoint))];
      const rows = await db.selectFrom("push_subscriptions").select(["endpoint", "p256dh", "auth"]).where("endpoint", "in", endpoints).execute();
      const keysOf = new Map(rows.map((row) => [row.endpoint, { p256dh: row.p256dh, auth: row.auth }]));
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const delivery = batch[next++]!;
          if (stopping() || clock.now().getTime() + REQUEST_TIMEOUT_MS > Date.parse(delivery.claimed_until)) continue;
          await deliver(delivery, keysOf);
          handled++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
    }
    return handled;
  }

  return { sendDue };
}

/** What a push service's answer means for the delivery (RFC 8030): delivered, gone, to retry, or failed. */
export function outcomeOf(status: number, retryAfter: string | null, attempts: number, now: Date): Outcome {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 404 || status === 410) return "removed";
  if (status === 429 || status >= 500) {
    const wait = Math.max(retryAfterMs(retryAfter, now) ?? 0, backoffMs(attempts));
    return { retryAt: new Date(now.getTime() + wait) };
  }
  return "failed";
}

export type PushSender = { wake: () => void; stop: () => Promise<void> };

/** Every process runs one: a round at start, then one every `intervalMs` or when woken (an alert was queued). */
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
    running = sender
      .sendDue(() => stopped)
      .then(() => undefined)
      .catch((error: unknown) => logger.error({ err: error }, "sending push alerts failed"))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          round();
        } else timer = setTimeout(round, intervalMs).unref();
      });
  };
  round();
  return {
    wake: round,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
