import { sql } from "kysely";
import { pushMessages as pm } from "~/lib/messages";
import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";

/** A reader opened alert `alertId`'s notification: counted, nothing else kept. */
export async function countAlertOpened(db: DB, body: unknown): Promise<void> {
  const parsed = z.object({ alertId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).safeParse(body);
  if (!parsed.success) throw new AppError("validation", { message: pm.alertInvalid });
  const result = await db
    .updateTable("push_alerts")
    .set((eb) => ({ opened: eb("opened", "+", 1) }))
    .where("id", "=", parsed.data.alertId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AppError("not-found", { message: pm.alertNotFound });
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
