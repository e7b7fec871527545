import type { DB } from "./db/db.server";

export async function countSiteVisit(db: DB): Promise<void> {
  await db
    .updateTable("site_stats")
    .set((eb) => ({ total_visits: eb("total_visits", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}

export async function totalSiteVisits(db: DB): Promise<number> {
  const row = await db.selectFrom("site_stats").select("total_visits").where("id", "=", 1).executeTakeFirst();
  return row?.total_visits ?? 0;
}
