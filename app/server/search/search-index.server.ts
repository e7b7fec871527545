import type { Kysely } from "kysely";
import type { QueryWord } from "~/lib/search/search-terms";
import { dialectName, type DialectName } from "~/server/db/dialect.server";
import type { Database } from "~/server/db/schema";
import {
  rebuildPostgresSearchIndex,
  searchPostgresIndex,
  syncPostgresSearchIndex,
} from "./search-index.postgres.server";
import { rebuildSqliteSearchIndex, searchSqliteIndex, syncSqliteSearchIndex } from "./search-index.sqlite.server";

type Page = { offset: number; limit: number };

/** Each engine's index: the same terms and tiers (app/lib/search/search-terms.ts), stored its own way. */
const INDEXES: Record<
  DialectName,
  {
    sync: (db: Kysely<Database>, newsId: string) => Promise<void>;
    rebuild: (db: Kysely<Database>) => Promise<number>;
    search: (db: Kysely<Database>, words: QueryWord[], page: Page) => Promise<string[]>;
  }
> = {
  sqlite: { sync: syncSqliteSearchIndex, rebuild: rebuildSqliteSearchIndex, search: searchSqliteIndex },
  postgres: { sync: syncPostgresSearchIndex, rebuild: rebuildPostgresSearchIndex, search: searchPostgresIndex },
};

const indexOf = (db: Kysely<Database>) => INDEXES[dialectName(db)];

/**
 * Brings the search index in line with one article: (re)indexes it when it exists, removes it when it
 * does not. Called inside the same transaction as every write to `news`.
 */
export async function syncSearchIndex(db: Kysely<Database>, newsId: string): Promise<void> {
  await indexOf(db).sync(db, newsId);
}

/** Indexes every article afresh; returns how many. */
export async function rebuildSearchIndex(db: Kysely<Database>): Promise<number> {
  return indexOf(db).rebuild(db);
}

/** Ids of one page of matches for the query words: title matches first, then content, each newest first. */
export async function findMatchingArticleIds(
  db: Kysely<Database>,
  words: QueryWord[],
  page: Page,
): Promise<string[]> {
  return indexOf(db).search(db, words, page);
}
