import type { DB } from "~/server/db/db.server";

/*
 * The Web Push alert of a story (decision 037), queued in the transaction that publishes it: one row
 * per story (its unique key), so whichever process, form or scheduler publishes or edits it, it goes
 * out once. The push/ folder makes its deliveries and sends them.
 */

export type AlertKind = "breaking" | "manual";

/** Queues story `articleId`'s alert inside `trx`; a story that already has one keeps it. */
export async function queueAlert(trx: DB, articleId: string, kind: AlertKind, at: Date): Promise<void> {
  await trx
    .insertInto("push_alerts")
    .values({ article_id: articleId, kind, created_at: at.toISOString() })
    .onConflict((oc) => oc.column("article_id").doNothing())
    .execute();
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
export async function alertsSince(db: DB, since: Date): Promise<number> {
  const row = await db.selectFrom("push_alerts").select((eb) => eb.fn.countAll().as("n")).where("created_at", ">=", since.toISOString()).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether story `articleId` has had its alert. */
export async function hasAlert(db: DB, articleId: string): Promise<boolean> {
  return (await db.selectFrom("push_alerts").select("id").where("article_id", "=", articleId).executeTakeFirst()) !== undefined;
}
