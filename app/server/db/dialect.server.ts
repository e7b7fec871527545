import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { SqliteDialect, type Dialect } from "kysely";

export type DialectName = "sqlite";

/** The one place that knows which database engine is behind Kysely. */
export function createDialect(databaseUrl: string): { dialect: Dialect; name: DialectName } {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error("DATABASE_URL: PostgreSQL support is planned but not available in this version; use a SQLite file path.");
  }
  const file = databaseUrl.startsWith("file:") ? databaseUrl.slice("file:".length) : databaseUrl;
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return { dialect: new SqliteDialect({ database }), name: "sqlite" };
}
