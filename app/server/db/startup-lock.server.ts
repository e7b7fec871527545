import SQLite from "better-sqlite3";
import pg from "pg";
import { ConfigurationError } from "~/server/platform/config.server";
import { databaseErrorOf, isSqliteBusy } from "./faults.server";
import { databaseFile, isPostgresUrl } from "~/server/platform/database-url.server";

/** How long a starting server waits for another one's start-up (migrations, demo seeding) before it gives up. */
export const STARTUP_LOCK_WAIT_MS = 120_000;
/** PostgreSQL's advisory lock key for start-up, the same in every server on the database. */
const POSTGRES_KEY = "akhbar:startup";
const LOCK_NOT_AVAILABLE = "55P03";
const RETRY_MS = 50;

function tooLong(): ConfigurationError {
  return new ConfigurationError(
    `Another server on this database has been starting for ${STARTUP_LOCK_WAIT_MS / 1000} s (migrating or seeding) and still holds the start-up lock. Wait for it, or stop it, then start again.`,
  );
}

/**
 * Runs `work` (migrate, sweep, seed) while no other server starting on the same database runs its
 * own: of several servers started together, each sees the database as the one before left it, so
 * demo content is seeded exactly once. A lock outside the data, so `work` may write freely: on
 * PostgreSQL a session advisory lock on a connection of its own; on SQLite an exclusive transaction on
 * a small file beside the database. Both are let go when the process dies.
 */
export async function withStartupLock<T>(
  databaseUrl: string,
  work: () => Promise<T>,
  waitMs = STARTUP_LOCK_WAIT_MS,
): Promise<T> {
  if (isPostgresUrl(databaseUrl)) return withAdvisoryLock(databaseUrl, work, waitMs);
  const file = databaseFile(databaseUrl);
  if (file === ":memory:") return work();
  return withLockFile(`${file}.startup-lock`, work, waitMs);
}

async function withAdvisoryLock<T>(databaseUrl: string, work: () => Promise<T>, waitMs: number): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(`set lock_timeout = ${Math.ceil(waitMs)}`);
    try {
      await client.query("select pg_advisory_lock(hashtext($1))", [POSTGRES_KEY]);
    } catch (error) {
      throw (error as { code?: string }).code === LOCK_NOT_AVAILABLE ? tooLong() : error;
    }
    return await work();
  } finally {
    // Ending the session lets go of its advisory lock.
    await client.end();
  }
}

async function withLockFile<T>(lockFile: string, work: () => Promise<T>, waitMs: number): Promise<T> {
  const lock = openLockFile(lockFile);
  try {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        lock.exec("BEGIN EXCLUSIVE");
        break;
      } catch (error) {
        // The lock file sits beside the database: its faults (a full disk) are the database's.
        if (!isSqliteBusy(error)) throw databaseErrorOf(error);
        if (Date.now() > deadline) throw tooLong();
        // Waiting on a timer, not inside SQLite: the process stays responsive to signals.
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    return await work();
  } finally {
    lock.close();
  }
}

function openLockFile(lockFile: string): SQLite.Database {
  try {
    const lock = new SQLite(lockFile);
    lock.pragma("busy_timeout = 0");
    return lock;
  } catch (error) {
    throw databaseErrorOf(error);
  }
}
