import { clientKey } from "~/server/platform/client-keys.server";
import type { DB } from "~/server/db/db.server";

/** One client's visit to one thing (an article, the site) on one day, with the address hashed away. */
export type VisitMark = { key: string; day: string };

/**
 * The address alone names the client: adding the user agent would count a household's phones apart,
 * but would also let one client count again and again by changing it.
 */
export function visitMark(secret: string, address: string, target: string, now = new Date()): VisitMark {
  const day = now.toISOString().slice(0, 10);
  return { key: clientKey(secret, "visit", day, address, target), day };
}

/** Records the mark; true when it is the client's first visit to its target today. Earlier days go. */
export async function isFirstVisitToday(db: DB, mark: VisitMark): Promise<boolean> {
  await db.deleteFrom("visit_marks").where("day", "<", mark.day).execute();
  const result = await db
    .insertInto("visit_marks")
    .values(mark)
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}
