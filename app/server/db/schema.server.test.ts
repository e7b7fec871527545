import { getMigrations } from "better-auth/db/migration";
import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { createAuth } from "~/server/accounts/auth-instance.server";
import type { DB } from "./db.server";
import { dialectName } from "./dialect.server";
import type { Database } from "./schema";

/** Every table of `Database`, no more and no fewer (the type checker holds this list to the interface). */
const TYPED_TABLES: Record<keyof Database, true> = {
  news: true,
  news_revisions: true,
  short_links: true,
  site_stats: true,
  user: true,
  session: true,
  account: true,
  verification: true,
  rateLimit: true,
  auth_attempts: true,
  visit_marks: true,
  news_search: true,
  news_search_keys: true,
  news_search_terms: true,
  events: true,
  firebase_imports: true,
  site_settings: true,
  front_page_placements: true,
  topics: true,
  news_topics: true,
  topic_redirects: true,
  review_mails: true,
  media: true,
  video_posters: true,
  removed_media: true,
  push_keys: true,
  push_subscriptions: true,
  push_alerts: true,
  push_deliveries: true,
  push_opens: true,
  live_coverage: true,
  live_updates: true,
  visit_allowances: true,
  stats_hourly: true,
  stats_daily: true,
  stats_readers: true,
  stats_live: true,
  newsletter_subscribers: true,
  newsletter_sendings: true,
  newsletter_deliveries: true,
};

/** Tables of SQLite's search index that PostgreSQL's does without. */
const SQLITE_ONLY = ["news_search_keys"];

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

it("our migrations create every table and column better-auth needs", async () => {
  const auth = createAuth(db, { baseUrl: "http://localhost:3000", authSecret: "t".repeat(40) });
  const { toBeCreated, toBeAdded } = await getMigrations(auth.options);
  expect(toBeCreated).toEqual([]);
  expect(toBeAdded).toEqual([]);
});

it("every table the migrations create has a type in schema.ts", async () => {
  // FTS5's shadow tables belong to news_search; SQLite's and Kysely's own tables are not ours.
  const { rows } =
    dialectName(db) === "sqlite"
      ? await sql<{ name: string }>`
          select name from pragma_table_list where schema = 'main' and type in ('table', 'virtual')
          and name not like 'sqlite_%' and name not like 'kysely_migration%'`.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_name not like 'kysely_migration%'`.execute(db);
  const tables = Object.keys(TYPED_TABLES).filter(
    (name) => dialectName(db) === "sqlite" || !SQLITE_ONLY.includes(name),
  );
  expect(rows.map((row) => row.name).sort()).toEqual(tables.sort());
});
