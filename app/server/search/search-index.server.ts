import type { Kysely } from "kysely";
import type { QueryWord } from "~/lib/search/search-terms";
import { dialectName } from "~/server/db/dialect.server";
import type { Database } from "~/server/db/schema";
import type { Audience } from "~/server/news/audience.server";
import { rebuildSqliteSearchIndex, searchSqliteIndex, syncSqliteSearchIndex } from "./search-index.sqlite.server";

// PostgreSQL's index (migration 005-search-postgres) comes beside search-index.sqlite.server.ts and is
// chosen here by dialectName(db); until then searching a PostgreSQL database finds nothing.
const hasIndex = (db: Kysely<Database>) => dialectName(db) === "sqlite";

/**
 * Brings the search index in line with one article: (re)indexes it when it exists, removes it when it
 * does not. Called inside the same transaction as every write to `news`.
 */
export async function syncSearchIndex(db: Kysely<Database>, newsId: string): Promise<void> {
  if (hasIndex(db)) await syncSqliteSearchIndex(db, newsId);
}

/** Indexes every article afresh; returns how many. */
export async function rebuildSearchIndex(db: Kysely<Database>): Promise<number> {
  return hasIndex(db) ? rebuildSqliteSearchIndex(db) : 0;
}

/** Ids of one page of matches for the query words: title matches first, then content, each newest first. */
export async function findMatchingArticleIds(
  db: Kysely<Database>,
  words: QueryWord[],
  page: { offset: number; limit: number; audience: Audience },
): Promise<string[]> {
  if (!hasIndex(db)) return [];
  return searchSqliteIndex(db, words, {
    offset: page.offset,
    limit: page.limit,
    includeDrafts: page.audience.includeDrafts,
  });
}
