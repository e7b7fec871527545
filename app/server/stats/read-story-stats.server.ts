import { sql } from "kysely";
import type { DB } from "~/server/db/db.server";
import { beirutDay } from "~/server/visits/view.server";
import { hoursBetween, lastDays, type Period } from "./stats-periods.server";
import type { Row } from "./read-stats.server";

export type StoryStats = {
  total: number;
  hourly: boolean;
  series: { period: string; label: string; views: number }[];
  sources: Row[];
};

const HOURLY_FOR_MS = 3 * 24 * 3_600_000;
const MAX_DAYS = 90;

/** One story's curve since publication (by hour in its first three days, then by day) and its sources. */
export async function readStoryStats(
  db: DB,
  options: { id: string; publishedAt: string | null; now: Date },
): Promise<StoryStats> {
  const published = options.publishedAt ? new Date(options.publishedAt) : options.now;
  const hourly = options.now.getTime() - published.getTime() < HOURLY_FOR_MS;
  const table = hourly ? "stats_hourly" : "stats_daily";
  const days = Math.min(MAX_DAYS, Math.ceil((options.now.getTime() - published.getTime()) / 86_400_000) + 1);
  const periods: Period[] = hourly
    ? hoursBetween(published, options.now)
    : lastDays(options.now, days).filter((p) => p.period >= beirutDay(published));
  const found = await db
    .selectFrom(table as "stats_daily")
    .select(["period", sql<string | number>`sum(views)`.as("views")])
    .where("news_id", "=", options.id)
    .where("period", ">=", periods[0]?.period ?? "")
    .groupBy("period")
    .execute();
  const viewsAt = new Map(found.map((row) => [row.period, Number(row.views)]));
  const sources = await db
    .selectFrom("stats_daily")
    .select(["source", sql<string | number>`sum(views)`.as("views")])
    .where("news_id", "=", options.id)
    .groupBy("source")
    .orderBy(sql`sum(views)`, "desc")
    .execute();
  const sourceRows = sources.map((row) => ({ key: row.source, label: row.source, views: Number(row.views) }));
  return {
    total: sourceRows.reduce((sum, row) => sum + row.views, 0),
    hourly,
    series: periods.map(({ period, label }) => ({ period, label, views: viewsAt.get(period) ?? 0 })),
    sources: sourceRows,
  };
}
