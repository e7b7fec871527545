import { Kysely } from "kysely";
import { createDialect } from "./dialect.server";
import { DEFAULT_POOL_SIZE } from "~/server/platform/database-url.server";
import type { Database } from "./schema";
import { sqliteValueShapes } from "./value-shapes.server";

export type DB = Kysely<Database>;

/** A connection to the database `databaseUrl` names: a SQLite file, or a pool of `poolSize` on PostgreSQL. */
export function openDatabase(databaseUrl: string, poolSize = DEFAULT_POOL_SIZE): DB {
  const { dialect, name } = createDialect(databaseUrl, poolSize);
  return new Kysely<Database>({ dialect, plugins: name === "postgres" ? [sqliteValueShapes] : [] });
}
