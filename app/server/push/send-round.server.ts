import pLimit from "p-limit";
import type { DB } from "~/server/db/db.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { createAlertMessages, createVapidAuthorizations, vapidSubject } from "./alert-messages.server";
import { nextTakeable, takeLease } from "./claims.server";
import { DeliveryThreads, type DeliveryAnswer } from "./delivery-thread.server";
import { openToken, payloadWithToken } from "~/server/news/push-open-tokens.server";
import { backoffMs, createOutcomeWriter, outcomeOf, type ClaimedDelivery } from "./outcomes.server";
import { prepareAlerts } from "./prepare-alerts.server";
import { siteVapidKeys, type VapidKeys } from "./vapid-keys.server";

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
  /** Keys each delivery's open token (news/push-open-tokens.server). */
  secret: string;
};

const REQUEST_TIMEOUT_MS = 15_000;
/** Deliveries claimed at once, in requests in flight: no more than the sender can start soon, the rest left to other senders. */
const CLAIMED_PER_SLOT = 2;
/** The delivery threads' niceness: with the CPU short, pages come first and sending takes about a tenth. */
const DELIVERY_THREAD_NICE = 10;

/** What became of a delivery: its outcome recorded while the claim was still its own, recorded after another sender took it, or left unstarted. */
type Handling = "recorded" | "lost" | "unstarted";
const handlingOf = (held: boolean): Handling => (held ? "recorded" : "lost");

export type Round = { handled: number; lost: number; next: Date | null };

/**
 * One process's sending: the alerts' payloads and the VAPID headers kept while it runs; messages
 * encrypted and sent by threads of their own, outcomes written together as they come.
 */
export function createSender(options: SenderOptions) {
  const { db, clock, baseUrl, concurrency, threads, ttlSeconds, leaseMs, loopback, secret } = options;
  const alerts = createAlertMessages(db);
  const authorization = createVapidAuthorizations();
  const delivery = new DeliveryThreads(threads, {
    sockets: concurrency,
    timeoutMs: REQUEST_TIMEOUT_MS,
    nice: DELIVERY_THREAD_NICE,
    loopback,
  });
  const outcomes = createOutcomeWriter(db);
  let keys: VapidKeys | undefined;
  let subject = "";

  /** Sends one claimed delivery and records its outcome; "unstarted" when its thread left it for another sender. */
  async function deliver(
    claimed: ClaimedDelivery,
    subscription: { p256dh: string; auth: string } | undefined,
  ): Promise<Handling> {
    const alert = alerts.get(claimed.alert_id);
    if (!alert || !subscription) return (await outcomes.record(claimed, "removed")) ? "recorded" : "unstarted";
    const payload = payloadWithToken(alert.payload, openToken(secret, claimed.alert_id, claimed.id));
    // A thread starved of CPU past half the lease leaves the job: the claim, given back or lapsed, goes to another sender.
    const startBy = Date.now() + leaseMs / 2;
    const answer = await delivery.deliver({
      endpoint: claimed.endpoint,
      ...subscription,
      ...alert,
      payload,
      ttlSeconds,
      authorization: authorization(claimed.endpoint, keys!, subject),
      startBy,
    });
    if ("notStarted" in answer) return "unstarted";
    return handlingOf(await settle(claimed, answer));
  }

  async function settle(
    claimed: ClaimedDelivery,
    answer: Exclude<DeliveryAnswer, { notStarted: true }>,
  ): Promise<boolean> {
    if ("refused" in answer) {
      logger.warn(
        { reason: answer.refused, alert: claimed.alert_id },
        "a push subscription's endpoint is not a push service on the internet: removed, nothing sent",
      );
      return outcomes.record(claimed, "removed");
    }
    if ("unencryptable" in answer) {
      logger.warn(
        { reason: answer.unencryptable, alert: claimed.alert_id },
        "a push subscription's keys cannot be encrypted to: removed, nothing sent",
      );
      return outcomes.record(claimed, "removed");
    }
    if ("error" in answer) {
      const retryAt = new Date(clock.now().getTime() + backoffMs(claimed.attempts));
      if (!answer.sent) {
        logger.warn({ err: answer.error, alert: claimed.alert_id }, "a push delivery failed to reach its service");
        return outcomes.record(claimed, { retryAt });
      }
      logger.warn(
        { err: answer.error, alert: claimed.alert_id, unanswered: claimed.unanswered + 1 },
        "a push service took a message and did not answer: it may have it; sent again at most once",
      );
      return outcomes.record(claimed, { retryAt, unanswered: true });
    }
    return outcomes.record(claimed, outcomeOf(answer.status, answer.retryAfter, claimed.attempts, clock.now()));
  }

  /**
   * Sends every delivery due now, claimed a batch at a time under one lease, until none is due or
   * `stopping()`; then gives back what it claimed and did not send. Returns how many it handled (and
   * of those sent, how many another sender had taken meanwhile) and when a delivery it could not take
   * becomes takeable. At most `concurrency` are unsettled at once, from the request until the outcome's
   * commit: no more can be sent twice if the process dies. A request starts only while the lease is
   * renewed on time, so no two senders send a delivery at once unless one stalls for longer than a
   * lease with a request in flight.
   */
  async function sendDue(stopping: () => boolean = () => false): Promise<Round> {
    const now = clock.now();
    await prepareAlerts(db, baseUrl, now);
    keys ??= await siteVapidKeys(db, now);
    if (!subject) subject = vapidSubject((await readSiteSettings(db)).settings.contact.email, baseUrl);
    const unsettled = pLimit(concurrency);
    const inFlight: Promise<void>[] = [];
    const lease = takeLease(db, clock, leaseMs);
    let failure: { error: unknown } | undefined;
    const round = { handled: 0, lost: 0 };
    const halted = () => stopping() || failure !== undefined || !lease.fresh();
    try {
      while (!halted()) {
        const batch = await lease.claim(concurrency * CLAIMED_PER_SLOT);
        if (batch.length === 0) break;
        await alerts.load(batch.map((claimed) => claimed.alert_id));
        const endpoints = [...new Set(batch.map((claimed) => claimed.endpoint))];
        const rows = await db
          .selectFrom("push_subscriptions")
          .select(["endpoint", "p256dh", "auth"])
          .where("endpoint", "in", endpoints)
          .execute();
        const keysOf = new Map(rows.map((row) => [row.endpoint, { p256dh: row.p256dh, auth: row.auth }]));
        for (const claimed of batch) {
          // The next delivery waits here for a free slot, and is checked once it has one.
          await new Promise<void>((slotTaken) => {
            const handled = unsettled(async () => {
              slotTaken();
              if (halted()) return;
              const handling = await deliver(claimed, keysOf.get(claimed.endpoint));
              if (handling === "recorded") round.handled++;
              if (handling === "lost") round.lost++;
            });
            inFlight.push(handled.catch((error: unknown) => void (failure ??= { error })));
          });
        }
      }
    } finally {
      await Promise.all(inFlight);
      try {
        await lease.release();
      } finally {
        // The threads and their connections live while a send runs, not between sends.
        await delivery.close();
      }
    }
    if (failure) throw failure.error;
    return { ...round, next: await nextTakeable(db) };
  }

  return { sendDue, close: () => delivery.close() };
}
