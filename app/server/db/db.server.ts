import { Kysely } from "kysely";
import { config } from "~/server/platform/config.server";
import { createDialect, DEFAULT_POOL_SIZE } from "./dialect.server";
import type { Database } from "./schema";
import { sqliteValueShapes } from "./value-shapes.server";

export type DB = Kysely<Database>;

/** A connection to the database `databaseUrl` names: a SQLite file, or a pool of `poolSize` on PostgreSQL. */
export function openDatabase(databaseUrl: string, poolSize = DEFAULT_POOL_SIZE): DB {
  const { dialect, name } = createDialect(databaseUrl, poolSize);
  return new Kysely<Database>({ dialect, plugins: name === "postgres" ? [sqliteValueShapes] : [] });
}

let shared: DB | undefined;

/** The process-wide connection, opened on first use from the configuration. */
export function db(): DB {
  const { databaseUrl, databasePoolSize } = config();
  shared ??= openDatabase(databaseUrl, databasePoolSize);
  return shared;
}

/** Closes the process-wide connection (on shutdown); a later db() opens a new one. */
export async function closeDatabase(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.destroy();
}
