import { sql, type Kysely } from "kysely";
import type { Engine } from "./engine";

// The search index of decision 003 (described in app/server/search/search-index.sqlite.server.ts). Only its
// tables: the index is derived data, filled by the application's current normalizer after migrating
// (migrateToLatest) or on demand (npm run search:rebuild), never by a migration's frozen copy of it.
// SQLite only: PostgreSQL's search tables come with migration 005-search-postgres.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== "sqlite") return;
  await sql`create virtual table news_search using fts5(
    terms, content='', contentless_delete=1, detail=none, tokenize='ascii', prefix='2 3')`.execute(db);
  await sql`create table news_search_keys (search_rowid integer primary key, news_id text not null unique)`.execute(db);
  await sql`create table news_search_terms (term text primary key) without rowid`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== "sqlite") return;
  for (const table of ["news_search_terms", "news_search_keys", "news_search"])
    await db.schema.dropTable(table).execute();
}
