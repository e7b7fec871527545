import { sql, type Kysely } from "kysely";
import type { Engine } from "./engine";

// The search index on PostgreSQL (described in app/server/search/search-index.postgres.server.ts). Only
// its tables, as with 002 on SQLite: the index is filled by the application's current normalizer.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== "postgres") return;
  await sql`create table news_search (
    news_id text primary key references news (id) on delete cascade,
    entry bigint generated always as identity,
    created_at timestamptz not null,
    published boolean not null,
    title_keys text[] not null,
    keys text[] not null)`.execute(db);
  await sql`create index news_search_keys_idx on news_search using gin (keys)`.execute(db);
  await sql`create index news_search_title_keys_idx on news_search using gin (title_keys)`.execute(db);
  await sql`create index news_search_order_idx on news_search (created_at desc, entry desc)`.execute(db);
  await sql`create table news_search_terms (term text collate "C" primary key)`.execute(db);
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== "postgres") return;
  for (const table of ["news_search_terms", "news_search"]) await db.schema.dropTable(table).execute();
}
