import { sql } from "kysely";
import { LIVE_MINUTES } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import type { StatsScope } from "./read-stats.server";

export type LiveReport = { readers: number; stories: { id: string; title: string; readers: number }[] };

const LIVE_STORIES = 10;

/** Readers whose view arrived in the last five minutes, and the stories they opened (decision 039). */
export async function readLive(db: DB, options: { scope: StatsScope; now: Date }): Promise<LiveReport> {
  const since = Math.floor(options.now.getTime() / 60_000) - (LIVE_MINUTES - 1);
  let recent = db
    .selectFrom("stats_live")
    .innerJoin("news", "news.id", "stats_live.news_id")
    .where("stats_live.minute", ">=", since);
  if (options.scope.authorId !== null) recent = recent.where("news.author_id", "=", options.scope.authorId);
  const total = await recent
    .select(sql<string | number>`count(distinct stats_live.reader)`.as("readers"))
    .executeTakeFirst();
  const stories = await recent
    .select(["news.id", "news.title", sql<string | number>`count(distinct stats_live.reader)`.as("readers")])
    .groupBy(["news.id", "news.title"])
    .orderBy(sql`count(distinct stats_live.reader)`, "desc")
    .limit(LIVE_STORIES)
    .execute();
  return {
    readers: Number(total?.readers ?? 0),
    stories: stories.map((row) => ({ id: row.id, title: row.title, readers: Number(row.readers) })),
  };
}
