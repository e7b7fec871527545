import { sql, type Kysely } from "kysely";
import { rebuildSqliteSearchIndex } from "../app/server/search/search-index.sqlite.server";

// The search index of issue #5 (described in app/server/search/search-index.sqlite.server.ts), filled from
// the articles already there with the app's normalizer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table news_search using fts5(
    terms, content='', contentless_delete=1, detail=none, tokenize='ascii', prefix='2 3')`.execute(db);
  await sql`create table news_search_keys (search_rowid integer primary key, news_id text not null unique)`.execute(db);
  await sql`create table news_search_terms (term text primary key) without rowid`.execute(db);
  await rebuildSqliteSearchIndex(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["news_search_terms", "news_search_keys", "news_search"])
    await db.schema.dropTable(table).execute();
}
