import type { DB } from "~/server/db/db.server";

/** A delivery as a sender claimed it: `claimed_by`, its lease, tells its claim from another sender's. */
export type ClaimedDelivery = {
  id: number;
  alert_id: number;
  endpoint: string;
  attempts: number;
  unanswered: number;
  claimed_by: string;
};

/** A retry after a request that may have reached the push service (written, never answered) is `unanswered`. */
export type Outcome = "delivered" | "removed" | "failed" | { retryAt: Date; unanswered?: boolean };
export type Counted = "delivered" | "removed" | "failed";

export const MAX_ATTEMPTS = 5;
/** Times a message is sent again after requests that may have reached the push service unanswered. */
export const MAX_REPEATS = 1;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 3_600_000;
/** Outcomes written in one transaction at most. */
const MOST_PER_WRITE = 500;

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempts);
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

/** How an outcome is counted on its alert, or null while the delivery waits for another attempt. */
function countedAs(delivery: ClaimedDelivery, outcome: Outcome): Counted | null {
  if (typeof outcome !== "object") return outcome;
  if (outcome.unanswered && delivery.unanswered >= MAX_REPEATS) return "failed";
  return delivery.attempts + 1 < MAX_ATTEMPTS ? null : "failed";
}

function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

export type Recorded = { delivery: ClaimedDelivery; outcome: Outcome };

/**
 * Records outcomes in one transaction, each only if its sender still holds the delivery's claim:
 * a retry waits for its time (one after an unanswered request is counted on its alert as repeated);
 * any other goes, is counted on its alert, and a gone subscription (404, 410) is deleted. Returns the
 * deliveries whose claim was held: how many were counted on alerts, and which were recorded at all.
 */
export async function recordOutcomes(db: DB, recorded: Recorded[]): Promise<{ counted: number; held: Set<number> }> {
  const finals = new Map<number, Recorded & { as: Counted }>();
  const retries: Recorded[] = [];
  for (const entry of recorded) {
    const as = countedAs(entry.delivery, entry.outcome);
    if (as) finals.set(entry.delivery.id, { ...entry, as });
    else retries.push(entry);
  }
  const byClaim = groupBy(finals.values(), (entry) => entry.delivery.claimed_by);
  return db.transaction().execute(async (trx) => {
    const repeats: ClaimedDelivery[] = [];
    const held = new Set<number>();
    for (const { delivery, outcome } of retries) {
      const { retryAt, unanswered = false } = outcome as { retryAt: Date; unanswered?: boolean };
      const retried = await trx
        .updateTable("push_deliveries")
        .set((eb) => ({
          attempts: eb("attempts", "+", 1),
          unanswered: eb("unanswered", "+", unanswered ? 1 : 0),
          due_at: retryAt.toISOString(),
          claimed_until: null,
          claimed_by: null,
        }))
        .where("id", "=", delivery.id)
        .where("claimed_by", "=", delivery.claimed_by)
        .executeTakeFirst();
      if (retried.numUpdatedRows === 0n) continue;
      held.add(delivery.id);
      if (unanswered) repeats.push(delivery);
    }
    for (const [alertId, entries] of groupBy(repeats, (delivery) => delivery.alert_id)) {
      await trx
        .updateTable("push_alerts")
        .set((eb) => ({ repeated: eb("repeated", "+", entries.length) }))
        .where("id", "=", alertId)
        .execute();
    }
    const counted: (Recorded & { as: Counted })[] = [];
    for (const [claimedBy, entries] of byClaim) {
      const gone = await trx
        .deleteFrom("push_deliveries")
        .where(
          "id",
          "in",
          entries.map((entry) => entry.delivery.id),
        )
        .where("claimed_by", "=", claimedBy)
        .returning("id")
        .execute();
      for (const row of gone) {
        counted.push(finals.get(Number(row.id))!);
        held.add(Number(row.id));
      }
    }
    const removed = counted.filter((entry) => entry.as === "removed").map((entry) => entry.delivery.endpoint);
    if (removed.length > 0) await trx.deleteFrom("push_subscriptions").where("endpoint", "in", removed).execute();
    for (const [alertId, entries] of groupBy(counted, (entry) => entry.delivery.alert_id)) {
      const count = (as: Counted) => entries.filter((entry) => entry.as === as).length;
      await trx
        .updateTable("push_alerts")
        .set((eb) => ({
          delivered: eb("delivered", "+", count("delivered")),
          failed: eb("failed", "+", count("failed")),
          removed: eb("removed", "+", count("removed")),
        }))
        .where("id", "=", alertId)
        .execute();
    }
    return { counted: counted.length, held };
  });
}

/**
 * Outcomes written together (a group commit): an outcome waits at most for the transaction being
 * written, then goes with every other that arrived meanwhile. `record` settles once it is written, with
 * whether the sender still held the delivery's claim.
 */
export function createOutcomeWriter(db: DB) {
  type Waiting = Recorded & { resolve: (held: boolean) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let writing = false;
  const writeNext = (): void => {
    if (writing || waiting.length === 0) return;
    writing = true;
    const batch = waiting.slice(0, MOST_PER_WRITE);
    waiting = waiting.slice(MOST_PER_WRITE);
    recordOutcomes(db, batch)
      .then(
        ({ held }) => batch.forEach((entry) => entry.resolve(held.has(entry.delivery.id))),
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
        writing = false;
        writeNext();
      });
  };
  return {
    record: (delivery: ClaimedDelivery, outcome: Outcome): Promise<boolean> =>
      new Promise((resolve, reject) => {
        // The first outcome of a turn waits for the turn's end: those its answers bring come with it.
        if (waiting.length === 0 && !writing) setImmediate(writeNext);
        waiting.push({ delivery, outcome, resolve, reject });
      }),
  };
}
