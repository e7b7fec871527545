import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Dialect } from "kysely";
import { NonBlockingSqliteDriver } from "./sqlite-driver.server";

export type DialectName = "sqlite";

/** The SQLite file a DATABASE_URL names (a path or a `file:` URL). */
export function databaseFile(databaseUrl: string): string {
  return databaseUrl.startsWith("file:") ? databaseUrl.slice("file:".length) : databaseUrl;
}

/** The one place that knows which database engine is behind Kysely. */
export function createDialect(databaseUrl: string): { dialect: Dialect; name: DialectName } {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error("DATABASE_URL: PostgreSQL support is planned but not available in this version; use a SQLite file path.");
  }
  const file = databaseFile(databaseUrl);
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  // Never wait for a lock inside a call: that would stop the event loop. The driver retries on timers.
  database.pragma("busy_timeout = 0");
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new NonBlockingSqliteDriver(database),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return { dialect, name: "sqlite" };
}
