import { sql } from "kysely";
import type { DashboardFilter } from "~/lib/dashboard-filter";
import type { DB } from "~/server/db/db.server";
import { EDITORS } from "~/lib/audience";
import { parseQuery } from "~/lib/search/search-terms";
import { articlesMatching } from "~/server/search/search-index.server";
import { newestFirst, summaries, toSummary } from "./articles-read.server";

/**
 * The stories holding every word of the query in their title, standfirst or text, matched as readers'
 * search matches (docs/product.md#search); a query with nothing searchable in it finds nothing.
 */
async function textMatches(db: DB, query: string) {
  const words = parseQuery(query);
  return words.length === 0 ? sql<boolean>`1 = 0` : articlesMatching(db, words);
}

/**
 * One page of the dashboard's list, newest first, with the search and filters applied. Articles in the
 * trash are not listed here (the trash has its own page).
 */
export async function listAllForDashboard(db: DB, filter: DashboardFilter, page: number, pageSize: number) {
  const matching = filter.query === "" ? null : await textMatches(db, filter.query);
  const rows = await newestFirst(summaries(db, EDITORS), EDITORS)
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select(["short_links.short_id", "news.author_id"])
    .$if(matching !== null, (query) => query.where(matching!))
    .$if(filter.status !== null, (query) => query.where("news.status", "=", filter.status!))
    .$if(filter.category !== null, (query) => query.where("news.category", "=", filter.category!))
    .$if(filter.authorId !== null, (query) => query.where("news.author_id", "=", filter.authorId!))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    items: rows
      .slice(0, pageSize)
      .map((row) => ({ ...toSummary(row), shortId: row.short_id, authorId: row.author_id })),
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
