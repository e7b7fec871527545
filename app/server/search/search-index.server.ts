import type { Kysely } from "kysely";
import type { QueryWord } from "~/lib/search/search-terms";
import type { Database } from "~/server/db/schema";
import type { Audience } from "~/server/news/audience.server";
import { rebuildSqliteSearchIndex, searchSqliteIndex, syncSqliteSearchIndex } from "./search-index.sqlite.server";

// SQLite is the only engine today; a PostgreSQL index would sit beside search-index.sqlite.server.ts
// and be chosen here.

/**
 * Brings the search index in line with one article: (re)indexes it when it exists, removes it when it
 * does not. Called inside the same transaction as every write to `news`.
 */
export async function syncSearchIndex(db: Kysely<Database>, newsId: string): Promise<void> {
  await syncSqliteSearchIndex(db, newsId);
}

/** Indexes every article afresh; returns how many. */
export async function rebuildSearchIndex(db: Kysely<Database>): Promise<number> {
  return rebuildSqliteSearchIndex(db);
}

/** Ids of one page of matches for the query words: title matches first, then content, each newest first. */
export async function findMatchingArticleIds(
  db: Kysely<Database>,
  words: QueryWord[],
  page: { offset: number; limit: number; audience: Audience },
): Promise<string[]> {
  return searchSqliteIndex(db, words, {
    offset: page.offset,
    limit: page.limit,
    includeDrafts: page.audience.includeDrafts,
  });
}
