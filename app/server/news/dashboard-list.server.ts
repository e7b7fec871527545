import { sql } from "kysely";
import type { DashboardFilter } from "~/lib/dashboard-filter";
import type { DB } from "~/server/db/db.server";
import { containsPattern } from "~/server/db/like.server";
import { EDITORS } from "~/lib/audience";
import { newestFirst, summaries, toSummary } from "./articles-read.server";

/** The title, standfirst or body text holds `words` as typed, letter case aside. */
function textContains(words: string) {
  const pattern = containsPattern(words);
  return sql<boolean>`(lower(news.title) like lower(${pattern}) escape '\\' or lower(coalesce(news.standfirst, '')) like lower(${pattern}) escape '\\' or lower(news.content) like lower(${pattern}) escape '\\')`;
}

/**
 * One page of the dashboard's list, newest first, with the search and filters applied. Articles in the
 * trash are not listed here (the trash has its own page).
 */
export async function listAllForDashboard(db: DB, filter: DashboardFilter, page: number, pageSize: number) {
  const rows = await newestFirst(summaries(db, EDITORS), EDITORS)
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select(["short_links.short_id", "news.author_id"])
    .$if(filter.query !== "", (query) => query.where(textContains(filter.query)))
    .$if(filter.status !== null, (query) => query.where("news.status", "=", filter.status!))
    .$if(filter.category !== null, (query) => query.where("news.category", "=", filter.category!))
    .$if(filter.authorId !== null, (query) => query.where("news.author_id", "=", filter.authorId!))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    items: rows.slice(0, pageSize).map((row) => ({ ...toSummary(row), shortId: row.short_id, authorId: row.author_id })),
    hasMore: rows.length > pageSize,
  };
}

/** The newsroom's members, for the dashboard's author filter. */
export async function listNewsroomMembers(db: DB): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("user")
    .select(["user.id", "user.name"])
    .where("user.role", "in", ["author", "editor", "admin"])
    .orderBy("user.name")
    .orderBy("user.id")
    .execute();
}
