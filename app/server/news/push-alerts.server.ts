import type { DB } from "~/server/db/db.server";
import { lockKeys } from "~/server/db/key-locks.server";
import { pushMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";

/*
 * The Web Push alert of a story (decision 037), queued in the transaction that publishes it: one row
 * per story (its unique key), so whichever process, form or scheduler publishes or edits it, it goes
 * out once. The push/ folder makes its deliveries and sends them.
 */

export type AlertKind = "breaking" | "manual";

const HOUR_MS = 3_600_000;
/** The key every transaction that queues an alert holds (db/key-locks), so the hourly count and the queueing are one step. */
const ALERT_QUEUE_KEY = "push-alerts:queue";

const overLimit = () => new AppError("validation", { message: pushMessages.overLimit, reason: "alert-limit", fields: { sendAlert: pushMessages.overLimit } });

/**
 * Queues story `articleId`'s alert inside `trx`; a story that already has one keeps it. With
 * `perHour`, a new alert that would be more than `perHour` in the hour up to `at` refuses the whole
 * write (alert-limit) instead. Transactions that queue take turns from the count to their commit.
 */
export async function queueAlert(trx: DB, articleId: string, kind: AlertKind, at: Date, perHour?: number, liveUpdateId: string | null = null): Promise<void> {
  await lockKeys(trx, [ALERT_QUEUE_KEY]);
  if (perHour !== undefined && !(await hasAlert(trx, articleId)) && (await alertsSince(trx, new Date(at.getTime() - HOUR_MS))) >= perHour) throw overLimit();
  await trx
    .insertInto("push_alerts")
    .values({ article_id: articleId, kind, created_at: at.toISOString(), live_update_id: liveUpdateId })
    .onConflict((oc) => oc.column("article_id").doNothing())
    .execute();
}

/**
 * The alerts per hour a write asking for an alert is held to: none once its form confirms going past
 * them (the refusal's question, answered), or when the site sets none.
 */
export async function alertLimitUnlessConfirmed(alertsPerHour: (() => Promise<number>) | undefined, confirmed: boolean): Promise<number | undefined> {
  return confirmed || !alertsPerHour ? undefined : alertsPerHour();
}

/** The key of a live update's alert (decision 040): one per update, as a story's own is one per story. */
export const liveUpdateAlertKey = (articleId: string, updateId: string) => `${articleId}#update-${updateId}`;

/** Queues the alert of live update `updateId` of story `articleId` inside `trx`, under the same hourly limit. */
export function queueLiveUpdateAlert(trx: DB, articleId: string, updateId: string, at: Date, perHour?: number): Promise<void> {
  return queueAlert(trx, liveUpdateAlertKey(articleId, updateId), "manual", at, perHour, updateId);
}

/** What a write of a story asks for: the alert of a story that becomes published, or of one an editor sends. */
export type AlertRequest = { category: string; wasPublished: boolean; published: boolean; sendAlert: boolean };

/** The kind of alert a write makes, or null: breaking when a breaking story is first published, manual when an editor asked for one. */
export function alertOfWrite({ category, wasPublished, published, sendAlert }: AlertRequest): AlertKind | null {
  if (!published) return null;
  if (category === "breaking" && !wasPublished) return "breaking";
  return sendAlert ? "manual" : null;
}

/** How many alerts were queued since `since`: the per-hour limit counts them. */
async function alertsSince(db: DB, since: Date): Promise<number> {
  const row = await db.selectFrom("push_alerts").select((eb) => eb.fn.countAll().as("n")).where("created_at", ">=", since.toISOString()).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether story `articleId` has had its alert. */
async function hasAlert(db: DB, articleId: string): Promise<boolean> {
  return (await db.selectFrom("push_alerts").select("id").where("article_id", "=", articleId).executeTakeFirst()) !== undefined;
}
