import type { Kysely, RawBuilder } from "kysely";
import type { QueryWord } from "~/lib/search/search-terms";
import { dialectName, type DialectName } from "~/server/db/dialect.server";
import type { Database } from "~/server/db/schema";
import {
  postgresArticlesMatching,
  rebuildPostgresSearchIndex,
  searchPostgresIndex,
  syncPostgresSearchIndex,
} from "./search-index.postgres.server";
import {
  rebuildSqliteSearchIndex,
  searchSqliteIndex,
  sqliteArticlesMatching,
  syncSqliteSearchIndex,
} from "./search-index.sqlite.server";

type Page = { offset: number; limit: number };

/** Each engine's index: the same terms and tiers (app/lib/search/search-terms.ts), stored its own way. */
const INDEXES: Record<
  DialectName,
  {
    sync: (db: Kysely<Database>, newsId: string) => Promise<void>;
    rebuild: (db: Kysely<Database>) => Promise<number>;
    search: (db: Kysely<Database>, words: QueryWord[], page: Page) => Promise<string[]>;
    matching: (db: Kysely<Database>, words: QueryWord[]) => Promise<RawBuilder<boolean>>;
  }
> = {
  sqlite: {
    sync: syncSqliteSearchIndex,
    rebuild: rebuildSqliteSearchIndex,
    search: searchSqliteIndex,
    matching: sqliteArticlesMatching,
  },
  postgres: {
    sync: syncPostgresSearchIndex,
    rebuild: rebuildPostgresSearchIndex,
    search: searchPostgresIndex,
    matching: postgresArticlesMatching,
  },
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
export async function findMatchingArticleIds(db: Kysely<Database>, words: QueryWord[], page: Page): Promise<string[]> {
  return indexOf(db).search(db, words, page);
}

/**
 * The newsroom's search: a condition on `news.id` that holds for every article of any status (drafts,
 * review, scheduled, the trash) containing every query word anywhere, matched as readers' search matches.
 */
export async function articlesMatching(db: Kysely<Database>, words: QueryWord[]): Promise<RawBuilder<boolean>> {
  return indexOf(db).matching(db, words);
}
