import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import { lockKeys } from "~/server/db/key-locks.server";
import { pushMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";
import { deliveryOfToken } from "./push-open-tokens.server";

/*
 * Web Push alerts (decision 037), the rows of push_alerts: a story's alert queued in the transaction that
 * publishes it, one per story, and a live update's in the one that posts it, one per update (decision 040),
 * so whichever process, form or scheduler writes it, it goes out once; the newsroom's list of them with
 * their counts, and the readers' opens counted. The push/ folder makes their deliveries and sends them.
 */

export type AlertKind = "breaking" | "manual";

const HOUR_MS = 3_600_000;
/** The key every transaction that queues an alert holds (db/key-locks), so the hourly count and the queueing are one step. */
const ALERT_QUEUE_KEY = "push-alerts:queue";

const overLimit = () =>
  new AppError("validation", {
    message: pushMessages.overLimit,
    reason: "alert-limit",
    fields: { sendAlert: pushMessages.overLimit },
  });

/**
 * Queues story `articleId`'s alert inside `trx`, or with `liveUpdateId` the alert of that live update
 * of it; one that already has its alert keeps it. With `perHour`, a new alert that would be more than
 * `perHour` in the hour up to `at` refuses the whole write (alert-limit) instead. Transactions that
 * queue take turns from the count to their commit.
 */
export async function queueAlert(
  trx: DB,
  articleId: string,
  kind: AlertKind,
  at: Date,
  perHour?: number,
  liveUpdateId: string | null = null,
): Promise<void> {
  await lockKeys(trx, [ALERT_QUEUE_KEY]);
  if (
    perHour !== undefined &&
    !(await hasAlert(trx, articleId, liveUpdateId)) &&
    (await alertsSince(trx, new Date(at.getTime() - HOUR_MS))) >= perHour
  )
    throw overLimit();
  await trx
    .insertInto("push_alerts")
    .values({ article_id: articleId, kind, created_at: at.toISOString(), live_update_id: liveUpdateId })
    .onConflict((oc) =>
      (liveUpdateId === null
        ? oc.column("article_id").where("live_update_id", "is", null)
        : oc.column("live_update_id")
      ).doNothing(),
    )
    .execute();
}

/**
 * The alerts per hour a write asking for an alert is held to: none once its form confirms going past
 * them (the refusal's question, answered), or when the site sets none.
 */
export async function alertLimitUnlessConfirmed(
  alertsPerHour: (() => Promise<number>) | undefined,
  confirmed: boolean,
): Promise<number | undefined> {
  return confirmed || !alertsPerHour ? undefined : alertsPerHour();
}

/** Queues the alert of live update `updateId` of story `articleId` inside `trx`, under the same hourly limit. */
export function queueLiveUpdateAlert(
  trx: DB,
  articleId: string,
  updateId: string,
  at: Date,
  perHour?: number,
): Promise<void> {
  return queueAlert(trx, articleId, "manual", at, perHour, updateId);
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
  const row = await db
    .selectFrom("push_alerts")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("created_at", ">=", since.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether story `articleId`, or its live update `liveUpdateId`, has had its alert. */
async function hasAlert(db: DB, articleId: string, liveUpdateId: string | null): Promise<boolean> {
  const alert =
    liveUpdateId === null
      ? db.selectFrom("push_alerts").where("article_id", "=", articleId).where("live_update_id", "is", null)
      : db.selectFrom("push_alerts").where("live_update_id", "=", liveUpdateId);
  return (await alert.select("id").executeTakeFirst()) !== undefined;
}

/** Opens are kept for the newest this many alerts; an older alert's notification counts no more. */
const OPENS_KEPT_ALERTS = 1000;

const openedSchema = z.object({
  alertId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  open: z.string().max(64).optional(),
});

/**
 * A reader opened a notification of alert `alertId`, whose payload carried the token `open`: counted
 * once per token, nothing else kept (decision 037). A token the site did not make is refused.
 */
export async function countAlertOpened(db: DB, secret: string, body: unknown): Promise<void> {
  const parsed = openedSchema.safeParse(body);
  if (!parsed.success) throw new AppError("validation", { message: pushMessages.alertInvalid });
  const { alertId, open } = parsed.data;
  const deliveryId = open === undefined ? null : deliveryOfToken(secret, alertId, open);
  if (deliveryId === null) throw new AppError("validation", { message: pushMessages.openedInvalid });
  await db.transaction().execute(async (trx) => {
    const { newest } = await trx
      .selectFrom("push_alerts")
      .select((eb) => eb.fn.max("id").as("newest"))
      .executeTakeFirstOrThrow();
    if (newest === null || alertId > Number(newest))
      throw new AppError("not-found", { message: pushMessages.alertNotFound });
    const oldestKept = Number(newest) - OPENS_KEPT_ALERTS;
    await trx.deleteFrom("push_opens").where("alert_id", "<=", oldestKept).execute();
    if (alertId <= oldestKept) return;
    const first = await trx
      .insertInto("push_opens")
      .values({ alert_id: alertId, delivery_id: deliveryId })
      .onConflict((oc) => oc.columns(["alert_id", "delivery_id"]).doNothing())
      .returning("alert_id")
      .executeTakeFirst();
    if (!first) return;
    const counted = await trx
      .updateTable("push_alerts")
      .set((eb) => ({ opened: eb("opened", "+", 1) }))
      .where("id", "=", alertId)
      .executeTakeFirst();
    if (counted.numUpdatedRows === 0n) throw new AppError("not-found", { message: pushMessages.alertNotFound });
  });
}

export type AlertRow = {
  id: number;
  articleId: string;
  title: string | null;
  kind: "breaking" | "manual";
  createdAt: string;
  pending: boolean;
  sent: number;
  delivered: number;
  failed: number;
  removed: number;
  opened: number;
};

/** The newest alerts with their counts, for the newsroom's alerts page. */
export async function listAlerts(db: DB, limit = 50): Promise<AlertRow[]> {
  const rows = await db
    .selectFrom("push_alerts")
    .leftJoin("news", "news.id", "push_alerts.article_id")
    .select([
      "push_alerts.id",
      "push_alerts.article_id",
      "news.title",
      "push_alerts.kind",
      "push_alerts.created_at",
      "push_alerts.payload",
      "push_alerts.sent",
      "push_alerts.delivered",
      "push_alerts.failed",
      "push_alerts.removed",
      "push_alerts.opened",
    ])
    .orderBy("push_alerts.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const counts = {
      sent: Number(row.sent),
      delivered: Number(row.delivered),
      failed: Number(row.failed),
      removed: Number(row.removed),
      opened: Number(row.opened),
    };
    return {
      id: Number(row.id),
      articleId: row.article_id,
      title: row.title,
      kind: row.kind,
      createdAt: row.created_at,
      pending: row.payload === null || counts.delivered + counts.failed + counts.removed < counts.sent,
      ...counts,
    };
  });
}
