import { Kysely } from "kysely";
import { createDialect, createThreadDialect } from "./dialect.server";
import { DEFAULT_POOL_SIZE } from "~/server/platform/database-url.server";
import type { Database } from "./schema";
import { sqliteValueShapes } from "./value-shapes.server";

export type DB = Kysely<Database>;

/** What this process runs once a write through a handle has committed, and waits for. */
export type AfterWrite = () => Promise<void>;

/** A handle openDatabase opened: it carries what runs after each write through it (its process's outbox followers). */
class OpenedDatabase extends Kysely<Database> {
  readonly afterWrites = new Set<AfterWrite>();
}

/** A connection to the database `databaseUrl` names: a SQLite file, or a pool of `poolSize` on PostgreSQL. */
export function openDatabase(databaseUrl: string, poolSize = DEFAULT_POOL_SIZE): DB {
  const { dialect, name } = createDialect(databaseUrl, poolSize);
  return new OpenedDatabase({ dialect, plugins: name === "postgres" ? [sqliteValueShapes] : [] });
}

/** What runs after writes through `db`; null for a handle openDatabase did not open (a transaction, a copy). */
export function afterWritesOf(db: DB): Set<AfterWrite> | null {
  return db instanceof OpenedDatabase ? db.afterWrites : null;
}

export type BatchWriter = { db: DB; close: () => Promise<void> };

/**
 * Where batch writes go that would otherwise hold the event loop (readers' views, push deliveries):
 * on SQLite, a connection of its own in a worker thread, closed by `close`; elsewhere `db` itself.
 */
export function openBatchWriter(databaseUrl: string, db: DB): BatchWriter {
  const dialect = createThreadDialect(databaseUrl);
  if (!dialect) return { db, close: async () => {} };
  const writer = new Kysely<Database>({ dialect });
  return { db: writer, close: () => writer.destroy() };
}
