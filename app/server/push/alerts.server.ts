import { sql } from "kysely";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { deliveryOfToken } from "./open-tokens.server";

/** Opens are kept for the newest this many alerts; an older alert's notification counts no more. */
const OPENS_KEPT_ALERTS = 1000;

const openedSchema = z.object({ alertId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), open: z.string().max(64).optional() });

/**
 * A reader opened a notification of alert `alertId`, whose payload carried the token `open`: counted
 * once per token, nothing else kept (decision 037). A token the site did not make is refused.
 */
export async function countAlertOpened(db: DB, secret: string, body: unknown): Promise<void> {
  const parsed = openedSchema.safeParse(body);
  if (!parsed.success) throw new AppError("validation", { message: pm.alertInvalid });
  const { alertId, open } = parsed.data;
  const deliveryId = open === undefined ? null : deliveryOfToken(secret, alertId, open);
  if (deliveryId === null) throw new AppError("validation", { message: pm.openedInvalid });
  await db.transaction().execute(async (trx) => {
    const { newest } = await trx.selectFrom("push_alerts").select((eb) => eb.fn.max("id").as("newest")).executeTakeFirstOrThrow();
    if (newest === null || alertId > Number(newest)) throw new AppError("not-found", { message: pm.alertNotFound });
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
    const counted = await trx.updateTable("push_alerts").set((eb) => ({ opened: eb("opened", "+", 1) })).where("id", "=", alertId).executeTakeFirst();
    if (counted.numUpdatedRows === 0n) throw new AppError("not-found", { message: pm.alertNotFound });
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
    .leftJoin("live_updates", "live_updates.id", "push_alerts.live_update_id")
    // A live update's alert is keyed by the update's address: its story is the update's (decision 040).
    .leftJoin("news", (join) => join.on(sql<boolean>`news.id = coalesce(live_updates.news_id, push_alerts.article_id)`))
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
    const counts = { sent: Number(row.sent), delivered: Number(row.delivered), failed: Number(row.failed), removed: Number(row.removed), opened: Number(row.opened) };
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
