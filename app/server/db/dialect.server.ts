import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  PostgresAdapter,
  PostgresDriver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
  type Driver,
} from "kysely";
import pg from "pg";
import type { Engine } from "../../../migrations/engine";
import { translatingFaults } from "./fault-driver.server";
import { databaseErrorOf, LOCK_WAIT_MS } from "./faults.server";
import { NonBlockingSqliteDriver } from "./sqlite-driver.server";
import { SqliteThreadDriver } from "./sqlite-thread-driver.server";
import { databaseFile, DEFAULT_POOL_SIZE, isPostgresUrl } from "~/server/platform/database-url.server";

/*
 * The one place that knows which database engine is behind Kysely. Elsewhere, the few places that must
 * differ ask `dialectName(db)`.
 */

export type DialectName = Engine;

/** How long a query may wait for a PostgreSQL connection, new or from the pool (pg's default waits forever). */
const CONNECT_TIMEOUT_MS = 10_000;

/** The engine behind a connection (or a transaction on it). */
export function dialectName(db: { getExecutor(): { readonly adapter: object } }): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export function createDialect(
  databaseUrl: string,
  poolSize = DEFAULT_POOL_SIZE,
): { dialect: Dialect; name: DialectName } {
  if (isPostgresUrl(databaseUrl)) return { dialect: postgresDialect(databaseUrl, poolSize), name: "postgres" };
  return { dialect: sqliteDialect(databaseFile(databaseUrl)), name: "sqlite" };
}

/** What every connection to the SQLite file sets, the site's and the batch writer's alike. */
const CONNECTION_PRAGMAS = ["synchronous = NORMAL", "foreign_keys = ON"];

function sqliteDialect(file: string): Dialect {
  const database = openSqlite(file);
  return sqliteDialectOn(() => new NonBlockingSqliteDriver(database));
}

function sqliteDialectOn(driver: () => Driver): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => translatingFaults(driver()),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/**
 * SQLite's file on a second connection, in a thread of its own, for batch writes whose work would
 * otherwise hold the event loop; null on PostgreSQL, whose queries already wait off it, and for a
 * database in memory, which no second connection can see.
 */
export function createThreadDialect(databaseUrl: string): Dialect | null {
  if (isPostgresUrl(databaseUrl)) return null;
  const file = databaseFile(databaseUrl);
  if (file === ":memory:") return null;
  return sqliteDialectOn(() => new SqliteThreadDriver(file, CONNECTION_PRAGMAS));
}

/** The SQLite file, opened in WAL mode; a disk that refuses gives its AppError (a full one: 507). */
function openSqlite(file: string): SQLite.Database {
  try {
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const database = new SQLite(file);
    database.pragma("journal_mode = WAL");
    for (const pragma of CONNECTION_PRAGMAS) database.pragma(pragma);
    // Never wait for a lock inside a call: that would stop the event loop. The driver retries on timers.
    database.pragma("busy_timeout = 0");
    return database;
  } catch (error) {
    throw databaseErrorOf(error);
  }
}

const PG_OID = { int8: 20, numeric: 1700 } as const;

/**
 * Counts and bigint counters as numbers, as SQLite gives them (pg gives strings), for every reader of the
 * pool. Moments and flags keep pg's types (Date, boolean): better-auth compares those as such, and our
 * domain code's handle reshapes them (value-shapes.server.ts).
 */
const parsers = new Map<number, (text: string) => unknown>([
  [PG_OID.int8, Number],
  [PG_OID.numeric, Number],
]);

const poolTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    parsers.get(oid) ?? pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

function postgresDialect(connectionString: string, max: number): Dialect {
  const pool = new pg.Pool({
    connectionString,
    max,
    types: poolTypes,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A statement waits for a lock no longer than SQLite's does; then PostgreSQL cancels it (55P03, a 503).
    lock_timeout: LOCK_WAIT_MS,
  });
  // A connection that breaks is dropped by the pool and replaced on the next query: while idle, the
  // pool hears its error; while lent out, its own listeners do (its next query fails and answers 503).
  // Without a listener the error would end the process.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
    // A backend that is ending (terminated, shut down) says so with a FATAL message, then closes. Said
    // during a query, that query fails but pg keeps the client usable until the close arrives, and the
    // pool would lend it out again meanwhile: ended here, it leaves the pool when released.
    client.connection.on("errorMessage", (message: { severity?: string }) => {
      if (message.severity === "FATAL") void client.end().catch(() => {});
    });
  });
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => translatingFaults(new PostgresDriver({ pool })),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
