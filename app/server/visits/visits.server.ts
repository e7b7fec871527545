import { sql, type Transaction } from "kysely";
import { HOURLY_STATS_DAYS, VISITS_PER_ADDRESS_FOR_SITE, VISITS_PER_ADDRESS_PER_ARTICLE } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import type { Database } from "~/server/db/schema";
import { beirutDay, utcDay, utcHour, type View } from "./view.server";

type Trx = Transaction<Database>;
/** Rows per insert: well under either engine's limit on parameters, and each insert built (on the event loop) in about a millisecond. */
const ROWS_PER_INSERT = 100;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_INSERT) out.push(items.slice(i, i + ROWS_PER_INSERT));
  return out;
}

/** Inserts the marks; returns the keys that were new. Sorted, so transactions on PostgreSQL take row locks in one order. */
async function newMarks(trx: Trx, marks: Map<string, string>): Promise<Set<string>> {
  const fresh = new Set<string>();
  const rows = [...marks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, day]) => ({ key, day }));
  for (const chunk of chunks(rows)) {
    const inserted = await trx
      .insertInto("visit_marks")
      .values(chunk)
      .onConflict((oc) => oc.column("key").doNothing())
      .returning("key")
      .execute();
    for (const row of inserted) fresh.add(row.key);
  }
  return fresh;
}

/** Adds each address's new browsers to its allowance; returns how many of them each address may still count. */
async function allowed(
  trx: Trx,
  asked: Map<string, { day: string; count: number; cap: number }>,
): Promise<Map<string, number>> {
  const granted = new Map<string, number>();
  const rows = [...asked]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, { day, count }]) => ({ key, day, used: count }));
  for (const chunk of chunks(rows)) {
    const after = await trx
      .insertInto("visit_allowances")
      .values(chunk)
      .onConflict((oc) =>
        oc.column("key").doUpdateSet((eb) => ({ used: eb("visit_allowances.used", "+", eb.ref("excluded.used")) })),
      )
      .returning(["key", "used"])
      .execute();
    for (const row of after) {
      const { count, cap } = asked.get(row.key)!;
      const before = Number(row.used) - count;
      granted.set(row.key, Math.max(0, Math.min(count, cap - before)));
    }
  }
  return granted;
}

function addTo<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

async function addViews(trx: Trx, table: "stats_hourly" | "stats_daily", views: Map<string, number>): Promise<void> {
  const rows = [...views]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, count]) => {
      const [period, news_id, source, device] = key.split("\0") as [string, string, string, string];
      return { period, news_id, source, device, views: count };
    });
  for (const chunk of chunks(rows)) {
    await trx
      .insertInto(table)
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(["period", "news_id", "source", "device"])
          .doUpdateSet({ views: sql<number>`${sql.ref(`${table}.views`)} + ${sql.ref("excluded.views")}` }),
      )
      .execute();
  }
}

async function addReaders(trx: Trx, readers: Map<string, number>): Promise<void> {
  const rows = [...readers].sort(([a], [b]) => (a < b ? -1 : 1)).map(([period, readers]) => ({ period, readers }));
  if (rows.length === 0) return;
  await trx
    .insertInto("stats_readers")
    .values(rows)
    .onConflict((oc) =>
      oc
        .column("period")
        .doUpdateSet((eb) => ({ readers: eb("stats_readers.readers", "+", eb.ref("excluded.readers")) })),
    )
    .execute();
}

export type Recorded = { counted: number; refused: number };

/**
 * Writes a batch of views in one transaction: each browser once per target and day, each address up to
 * its bound of distinct browsers (docs/product.md#visits), then the counts, the hourly and daily views
 * by source and device, the distinct readers, and the "now" panel's rows.
 */
export async function recordViews(db: DB, views: View[]): Promise<Recorded> {
  if (views.length === 0) return { counted: 0, refused: 0 };
  return db.transaction().execute(async (trx) => {
    const browserMarks = new Map(views.map((view) => [view.browserKey, utcDay(view.at)]));
    const freshBrowsers = await newMarks(trx, browserMarks);
    const firsts = views.filter((view) => freshBrowsers.delete(view.browserKey));
    const asked = new Map<string, { day: string; count: number; cap: number }>();
    for (const view of firsts) {
      const entry = asked.get(view.addressKey) ?? {
        day: utcDay(view.at),
        count: 0,
        cap: view.newsId === null ? VISITS_PER_ADDRESS_FOR_SITE : VISITS_PER_ADDRESS_PER_ARTICLE,
      };
      entry.count++;
      asked.set(view.addressKey, entry);
    }
    const granted = await allowed(trx, asked);
    const counted = firsts.filter((view) => {
      const left = granted.get(view.addressKey) ?? 0;
      granted.set(view.addressKey, left - 1);
      return left > 0;
    });

    const perArticle = new Map<string, number>();
    let site = 0;
    const hourly = new Map<string, number>();
    const daily = new Map<string, number>();
    const readerMarks = new Map<string, string>();
    const live = new Map<string, { minute: number; news_id: string; reader: string }>();
    for (const view of counted) {
      if (view.newsId === null) {
        site++;
        continue;
      }
      addTo(perArticle, view.newsId);
      const classes = `${view.newsId}\0${view.source}\0${view.device}`;
      addTo(hourly, `${utcHour(view.at)}\0${classes}`);
      addTo(daily, `${beirutDay(view.at)}\0${classes}`);
      readerMarks.set(view.hourReaderKey, utcDay(view.at));
      readerMarks.set(view.dayReaderKey, utcDay(view.at));
      const minute = Math.floor(view.at.getTime() / 60_000);
      live.set(`${minute}\0${view.newsId}\0${view.liveReader}`, {
        minute,
        news_id: view.newsId,
        reader: view.liveReader,
      });
    }
    for (const [id, count] of [...perArticle].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await trx
        .updateTable("news")
        .set((eb) => ({ visits: eb("visits", "+", count) }))
        .where("id", "=", id)
        .execute();
    }
    if (site > 0)
      await trx
        .updateTable("site_stats")
        .set((eb) => ({ total_visits: eb("total_visits", "+", site) }))
        .where("id", "=", 1)
        .execute();
    await addViews(trx, "stats_hourly", hourly);
    await addViews(trx, "stats_daily", daily);

    const freshReaders = await newMarks(trx, readerMarks);
    const readers = new Map<string, number>();
    for (const view of counted) {
      if (freshReaders.delete(view.hourReaderKey)) addTo(readers, utcHour(view.at));
      if (freshReaders.delete(view.dayReaderKey)) addTo(readers, beirutDay(view.at));
    }
    await addReaders(trx, readers);
    const liveRows = [...live.values()].sort(
      (a, b) => a.minute - b.minute || (a.news_id + a.reader < b.news_id + b.reader ? -1 : 1),
    );
    for (const chunk of chunks(liveRows)) {
      await trx
        .insertInto("stats_live")
        .values(chunk)
        .onConflict((oc) => oc.columns(["minute", "news_id", "reader"]).doNothing())
        .execute();
    }
    return { counted: counted.length, refused: firsts.length - counted.length };
  });
}

/** Forgets what only the bound and the "now" panel need (marks and allowances before yesterday, live rows past ten minutes) and hourly figures past 90 days. */
export async function pruneViews(db: DB, now: Date): Promise<void> {
  const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
  await db.deleteFrom("visit_marks").where("day", "<", yesterday).execute();
  await db.deleteFrom("visit_allowances").where("day", "<", yesterday).execute();
  await db
    .deleteFrom("stats_live")
    .where("minute", "<", Math.floor(now.getTime() / 60_000) - 10)
    .execute();
  await db
    .deleteFrom("stats_hourly")
    .where("period", "<", utcHour(new Date(now.getTime() - HOURLY_STATS_DAYS * 86_400_000)))
    .execute();
}

/** True when the article is published: a view of anything else is refused before it is buffered. */
export async function isPublished(db: DB, id: string): Promise<boolean> {
  const row = await db
    .selectFrom("news")
    .select("id")
    .where("id", "=", id)
    .where("status", "=", "published")
    .executeTakeFirst();
  return row !== undefined;
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
