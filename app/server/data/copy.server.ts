/**
 * Copies a site's data from one database into an empty one (npm run db:copy: a SQLite site moving
 * to PostgreSQL). Rows are copied table by table in one transaction on the target, each value turned
 * into the target column's type; the search index is derived data, rebuilt there rather than copied,
 * and the outbox's events are not copied at all.
 */
import { DEFAULT_MIGRATION_TABLE, sql, type ColumnMetadata } from "kysely";
import type { DB } from "~/server/db/db.server";
import { migrateToLatest } from "./migrate.server";
import type { Database } from "~/server/db/schema";
import { rebuildSearchIndex } from "~/server/search/search-index.server";

/** Every table that holds the site's data, parents before the tables that refer to them. */
const COPIED_TABLES = [
  "user",
  "account",
  "session",
  "verification",
  "rateLimit",
  "auth_attempts",
  "news",
  "news_revisions",
  "short_links",
  "site_stats",
  "visit_marks",
  "firebase_imports",
  "site_settings",
  "front_page_placements",
  "topics",
  "news_topics",
  "topic_redirects",
  "media",
  "video_posters",
  "removed_media",
  "push_keys",
  "push_subscriptions",
  "push_alerts",
  "live_coverage",
  "live_updates",
  "visit_allowances",
  "stats_hourly",
  "stats_daily",
  "stats_readers",
  "newsletter_subscribers",
  "newsletter_sendings",
] as const satisfies readonly (keyof Database)[];

/** SQLite's search index tables (FTS5 and its shadow tables): rebuilt on the target, not copied. */
const DERIVED_TABLE_PREFIX = "news_search";
/**
 * The outbox: notices for running servers, not site data. The target starts its own ids; a reader
 * whose Last-Event-ID came from the source gets a fresh snapshot there. And the push deliveries still
 * waiting: a send in flight belongs to the server that began it (decision 037). And who read what in
 * the last ten minutes: the "now" panel of a running site (decision 039). And which notifications were
 * opened: their tokens name the source's alert numbers, which the copy renumbers (decision 037). And the
 * claims on review mails, which name the source's outbox events. And the newsletter's deliveries still
 * waiting, as the push deliveries (decision 046).
 */
const NOT_COPIED_TABLES = ["events", "push_deliveries", "newsletter_deliveries", "push_opens", "review_mails", "stats_live"];

/** Each table's primary key: the order rows are read in, so batches neither skip nor repeat a row. */
const KEY_COLUMN: Record<CopiedTable, string | readonly string[]> = {
  user: "id",
  account: "id",
  session: "id",
  verification: "id",
  rateLimit: "id",
  auth_attempts: "id",
  news: "id",
  news_revisions: "id",
  short_links: "short_id",
  site_stats: "id",
  visit_marks: "key",
  firebase_imports: ["kind", "source_id"],
  site_settings: "id",
  front_page_placements: "slot",
  topics: "id",
  news_topics: ["news_id", "topic_id"],
  topic_redirects: "slug",
  media: "url",
  video_posters: ["news_id", "video_url"],
  removed_media: "url",
  push_keys: "id",
  push_subscriptions: "endpoint",
  push_alerts: "id",
  live_coverage: "news_id",
  live_updates: "id",
  visit_allowances: "key",
  stats_hourly: ["period", "news_id", "source", "device"],
  stats_daily: ["period", "news_id", "source", "device"],
  stats_readers: "period",
  newsletter_subscribers: "id",
  newsletter_sendings: "id",
};

/** Columns the target numbers by itself; rows are copied in key order, so revisions keep their order. */
const GENERATED_COLUMNS: Partial<Record<CopiedTable, string[]>> = {
  auth_attempts: ["id"],
  news_revisions: ["id"],
  push_alerts: ["id"],
  newsletter_subscribers: ["id"],
  newsletter_sendings: ["id"],
};

/** Rows per insert: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH_ROWS = 500;

type CopiedTable = (typeof COPIED_TABLES)[number];
type Row = Record<string, unknown>;
export type CopiedCount = { table: CopiedTable; source: number; target: number };

export class CopyError extends Error {}

async function tableNames(db: DB): Promise<string[]> {
  return (await db.introspection.getTables()).map((table) => table.name);
}

async function rowCount(db: DB, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The source must hold nothing this copy would leave behind. */
async function checkSourceTables(source: DB): Promise<void> {
  const known = new Set<string>(COPIED_TABLES);
  const unknown = (await tableNames(source)).filter(
    (name) => !known.has(name) && !name.startsWith(DERIVED_TABLE_PREFIX) && !NOT_COPIED_TABLES.includes(name),
  );
  if (unknown.length > 0) throw new CopyError(`The source holds tables this copy does not know: ${unknown.join(", ")}.`);
}

/**
 * Only an empty database receives a copy: no tables, or ours (migrated, e.g. by an earlier copy that
 * failed) with nothing in them. Tables without Kysely's migration table belong to another application.
 */
async function checkTargetEmpty(target: DB): Promise<void> {
  const present = (await target.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
  if (present.length === 0) return;
  if (!present.includes(DEFAULT_MIGRATION_TABLE))
    throw new CopyError(`The target database is not empty: it holds another application's tables (${present.join(", ")}).`);
  for (const table of COPIED_TABLES.filter((name) => present.includes(name) && name !== "site_stats")) {
    const rows = await rowCount(target, table);
    if (rows > 0) throw new CopyError(`The target database is not empty: ${table} has ${rows} rows. Copy into a new database.`);
  }
}

/** A value as the target column stores it: SQLite keeps booleans as 0/1 and times as ISO text. */
function asColumnType(value: unknown, column: ColumnMetadata): unknown {
  if (value === null || value === undefined) return null;
  const type = column.dataType.toLowerCase();
  if (type.startsWith("bool")) return typeof value === "string" ? value === "true" || value === "1" : Boolean(Number(value));
  if (type.startsWith("timestamp")) return new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : (value as string | number));
  if (/^(int|bigint|smallint|integer|numeric|real|double|float)/.test(type)) return Number(value);
  if (type === "text" || type.startsWith("varchar") || type.startsWith("character")) return value instanceof Date ? value.toISOString() : String(value);
  return value;
}

async function targetColumns(target: DB, table: CopiedTable): Promise<ColumnMetadata[]> {
  const metadata = (await target.introspection.getTables()).find((candidate) => candidate.name === table);
  if (!metadata) throw new CopyError(`The migrated target has no table ${table}.`);
  const generated = GENERATED_COLUMNS[table] ?? [];
  return metadata.columns.filter((column) => !generated.includes(column.name));
}

/** Copies one table in batches. */
async function copyTable(source: DB, target: DB, table: CopiedTable, columns: ColumnMetadata[]): Promise<void> {
  const names = columns.map((column) => column.name);
  for (let offset = 0; ; offset += BATCH_ROWS) {
    const { rows } = await sql<Row>`select ${sql.join(names.map((name) => sql.ref(name)))} from ${sql.table(table)}
      order by ${sql.join([KEY_COLUMN[table]].flat().map((name) => sql.ref(name)))} limit ${BATCH_ROWS} offset ${offset}`.execute(source);
    if (rows.length === 0) return;
    const values = rows.map((row) => sql`(${sql.join(columns.map((column) => asColumnType(row[column.name], column)))})`);
    await sql`insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))}) values ${sql.join(values)}`.execute(target);
  }
}

async function countsOf(source: DB, target: DB): Promise<CopiedCount[]> {
  const counts: CopiedCount[] = [];
  for (const table of COPIED_TABLES) counts.push({ table, source: await rowCount(source, table), target: await rowCount(target, table) });
  return counts;
}

/**
 * Migrates `target`, copies every table of the site from `source` into it and rebuilds its search
 * index, all or nothing; then compares row counts table by table. Refuses a target that holds data.
 */
export async function copySite(source: DB, target: DB): Promise<CopiedCount[]> {
  await checkSourceTables(source);
  await checkTargetEmpty(target);
  await migrateToLatest(target);
  const columns = new Map<CopiedTable, ColumnMetadata[]>();
  for (const table of COPIED_TABLES) columns.set(table, await targetColumns(target, table));
  await target.transaction().execute(async (trx) => {
    // Migrations seed site_stats' one row; the source's replaces it.
    await trx.deleteFrom("site_stats").execute();
    for (const table of COPIED_TABLES) await copyTable(source, trx, table, columns.get(table) ?? []);
    await rebuildSearchIndex(trx);
  });
  // Planner statistics for the rows just loaded; until autovacuum gathers them, PostgreSQL picks slow plans.
  await sql`analyze`.execute(target);
  const counts = await countsOf(source, target);
  const wrong = counts.filter((count) => count.source !== count.target);
  if (wrong.length > 0)
    throw new CopyError(`Row counts differ after copying: ${wrong.map((c) => `${c.table} ${c.source} → ${c.target}`).join(", ")}.`);
  return counts;
}
