import type { DB } from "~/server/db/db.server";
import { isFirstVisitToday, type VisitMark } from "./visit-marks.server";

/** Adds the client's visit to a published article, once a day: "missing" for a draft or no article. */
export async function countArticleVisit(db: DB, id: string, mark: VisitMark): Promise<"counted" | "seen" | "missing"> {
  return db.transaction().execute(async (trx) => {
    const article = await trx.selectFrom("news").select("id").where("id", "=", id).where("status", "=", "published").executeTakeFirst();
    if (!article) return "missing";
    if (!(await isFirstVisitToday(trx, mark))) return "seen";
    await trx
      .updateTable("news")
      .set((eb) => ({ visits: eb("visits", "+", 1) }))
      .where("id", "=", id)
      .execute();
    return "counted";
  });
}

/** Counts the client's visit to the site, once a day; true when it counted. */
export async function countSiteVisit(db: DB, mark: VisitMark): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await isFirstVisitToday(trx, mark))) return false;
    await trx
      .updateTable("site_stats")
      .set((eb) => ({ total_visits: eb("total_visits", "+", 1) }))
      .where("id", "=", 1)
      .execute();
    return true;
  });
}

export async function totalSiteVisits(db: DB): Promise<number> {
  const row = await db.selectFrom("site_stats").select("total_visits").where("id", "=", 1).executeTakeFirst();
  return row?.total_visits ?? 0;
}

/** Adds visits counted elsewhere (the Firebase import) to the site's total. */
export async function addSiteVisits(db: DB, visits: number): Promise<void> {
  await db
    .updateTable("site_stats")
    .set((eb) => ({ total_visits: eb("total_visits", "+", visits) }))
    .where("id", "=", 1)
    .execute();
}
