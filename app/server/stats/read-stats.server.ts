import { sql } from "kysely";
import type { DB } from "~/server/db/db.server";
import type { StatsRange } from "~/lib/stats-ranges";
import { periodsOf } from "./stats-periods.server";

/** Whose stories a report covers: null for every story (editors, admins), else one author's own. */
export type StatsScope = { authorId: string | null };
export type Row = { key: string; label: string; views: number };
export type SeriesPoint = { period: string; label: string; views: number; readers: number | null };
export type StatsReport = {
  range: StatsRange;
  series: SeriesPoint[];
  totals: { views: number; readers: number | null };
  top: Row[];
  categories: Row[];
  authors: Row[];
  topics: Row[];
  sources: Row[];
  devices: Row[];
};

const TOP_STORIES = 10;
const BREAKDOWN_ROWS = 20;

/** The stored views of the range, joined to their stories and narrowed to the scope. Both tables share one shape. */
function viewsOf(db: DB, table: "stats_hourly" | "stats_daily", first: string, last: string, scope: StatsScope) {
  const from = (table === "stats_hourly" ? "stats_hourly as s" : "stats_daily as s") as "stats_daily as s";
  let query = db
    .selectFrom(from)
    .innerJoin("news", "news.id", "s.news_id")
    .where("s.period", ">=", first)
    .where("s.period", "<=", last);
  if (scope.authorId !== null) query = query.where("news.author_id", "=", scope.authorId);
  return query;
}

const viewsSum = sql<string | number>`sum(s.views)`;

function rows(found: { key: string | null; label: string | null; views: string | number | null }[]): Row[] {
  return found.map((row) => ({ key: row.key ?? "", label: row.label ?? row.key ?? "", views: Number(row.views ?? 0) }));
}

/** The newsroom's report for a range: the curve, totals, top stories and views by category, author, topic, source and device. */
export async function readStats(
  db: DB,
  options: { range: StatsRange; scope: StatsScope; now: Date },
): Promise<StatsReport> {
  const { table, periods } = periodsOf(options.range, options.now);
  const first = periods[0]!.period;
  const last = periods.at(-1)!.period;
  const views = () => viewsOf(db, table, first, last, options.scope);

  const byPeriod = await views()
    .select(["s.period as key", "s.period as label", viewsSum.as("views")])
    .groupBy("s.period")
    .execute();
  const readersByPeriod =
    options.scope.authorId === null
      ? await db
          .selectFrom("stats_readers")
          .select(["period", "readers"])
          .where(
            "period",
            "in",
            periods.map((p) => p.period),
          )
          .execute()
      : null;
  const viewsAt = new Map(rows(byPeriod).map((row) => [row.key, row.views]));
  const readersAt = new Map((readersByPeriod ?? []).map((row) => [row.period, Number(row.readers)]));
  const series = periods.map(({ period, label }) => ({
    period,
    label,
    views: viewsAt.get(period) ?? 0,
    readers: readersByPeriod ? (readersAt.get(period) ?? 0) : null,
  }));

  const top = await views()
    .select(["news.id as key", "news.title as label", viewsSum.as("views")])
    .groupBy(["news.id", "news.title"])
    .orderBy(sql`sum(s.views)`, "desc")
    .limit(TOP_STORIES)
    .execute();
  const categories = await views()
    .select(["news.category as key", "news.category as label", viewsSum.as("views")])
    .groupBy("news.category")
    .orderBy(sql`sum(s.views)`, "desc")
    .execute();
  const authors = await views()
    .leftJoin("user", "user.id", "news.author_id")
    .select(["news.author_id as key", "user.name as label", viewsSum.as("views")])
    .groupBy(["news.author_id", "user.name"])
    .orderBy(sql`sum(s.views)`, "desc")
    .limit(BREAKDOWN_ROWS)
    .execute();
  const topics = await views()
    .innerJoin("news_topics", "news_topics.news_id", "news.id")
    .innerJoin("topics", "topics.id", "news_topics.topic_id")
    .select(["topics.id as key", "topics.name as label", viewsSum.as("views")])
    .groupBy(["topics.id", "topics.name"])
    .orderBy(sql`sum(s.views)`, "desc")
    .limit(BREAKDOWN_ROWS)
    .execute();
  const sources = await views()
    .select(["s.source as key", "s.source as label", viewsSum.as("views")])
    .groupBy("s.source")
    .orderBy(sql`sum(s.views)`, "desc")
    .execute();
  const devices = await views()
    .select(["s.device as key", "s.device as label", viewsSum.as("views")])
    .groupBy("s.device")
    .orderBy(sql`sum(s.views)`, "desc")
    .execute();

  const totalViews = series.reduce((sum, point) => sum + point.views, 0);
  const dayReaders = options.range === "today" && readersByPeriod ? await readersOn(db, options.now) : null;
  return {
    range: options.range,
    series,
    totals: {
      views: totalViews,
      readers: readersByPeriod ? (dayReaders ?? series.reduce((sum, point) => sum + (point.readers ?? 0), 0)) : null,
    },
    top: rows(top),
    categories: rows(categories),
    authors: rows(authors),
    topics: rows(topics),
    sources: rows(sources),
    devices: rows(devices),
  };
}

/** Distinct browsers on Beirut's day of `now` (the hours' readers overlap; the day's do not). */
async function readersOn(db: DB, now: Date): Promise<number> {
  const { periods } = periodsOf("7d", now);
  const row = await db
    .selectFrom("stats_readers")
    .select("readers")
    .where("period", "=", periods.at(-1)!.period)
    .executeTakeFirst();
  return Number(row?.readers ?? 0);
}
