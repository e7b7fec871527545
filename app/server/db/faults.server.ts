import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";

/** How long a statement waits for a lock (SQLite's write lock, PostgreSQL's lock_timeout) before the request gets a 503. */
export const LOCK_WAIT_MS = 5_000;
const RETRY_AFTER_SECONDS = 5;

/** A lock stayed taken by another process past LOCK_WAIT_MS: 503 with Retry-After, never a 500. */
export function databaseBusy(cause?: unknown): AppError {
  return new AppError("unavailable", { message: messages.databaseBusy, retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}

/** The database cannot be reached or stopped answering (restart, connection limit, lost network). */
export function databaseUnavailable(cause?: unknown): AppError {
  return new AppError("unavailable", {
    message: messages.databaseUnavailable,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    cause,
  });
}

const fullDatabaseErrors = new WeakSet<AppError>();

/** The disk under the database is full: 507, and the write did not happen. */
export function databaseFull(cause?: unknown): AppError {
  const error = new AppError("storage-full", { message: messages.databaseFull, cause });
  fullDatabaseErrors.add(error);
  return error;
}

/** Whether `error` is the database's full disk (rather than the media folder's). */
export function isDatabaseFull(error: unknown): boolean {
  return AppError.is(error) && fullDatabaseErrors.has(error);
}

export function isSqliteBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code?.startsWith("SQLITE_BUSY") ?? false;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** SQLite's result codes, and PostgreSQL's SQLSTATEs (by class where the whole class means one thing). */
const BUSY = [/^SQLITE_BUSY/, /^55P03$/, /^40P01$/];
/** SQLITE_IOERR_SHMSIZE: the WAL index could not grow, which on a local disk means it is full. */
const FULL = [/^SQLITE_FULL$/, /^SQLITE_IOERR_SHMSIZE$/, /^53100$/, /^ENOSPC$/, /^EDQUOT$/];
const UNAVAILABLE = [/^SQLITE_(IOERR|CANTOPEN|READONLY|NOMEM)/, /^08...$/, /^53[23]00$/, /^57P0[1-3]$/];
/** Node's own errors for a connection that failed or broke. */
const CONNECTION_LOST = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** pg's errors for a connection that broke or never came carry no code, only these words. */
const PG_CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * What a database failure means for the request, as an AppError: a lock not had in time (503), the
 * database out of reach (503), its disk full (507). Anything else (a constraint, a bug) is left as it is.
 */
export function databaseErrorOf(error: unknown): unknown {
  if (AppError.is(error)) return error;
  const code = codeOf(error);
  if (code !== undefined) {
    if (BUSY.some((pattern) => pattern.test(code))) return databaseBusy(error);
    if (FULL.some((pattern) => pattern.test(code))) return databaseFull(error);
    if (UNAVAILABLE.some((pattern) => pattern.test(code)) || CONNECTION_LOST.has(code))
      return databaseUnavailable(error);
  }
  if (error instanceof Error && PG_CONNECTION_LOST.test(error.message)) return databaseUnavailable(error);
  return error;
}

/** A connection that could not be had: every reason (refused, limit reached, database gone) is an outage. */
export function connectionErrorOf(error: unknown): AppError {
  const known = databaseErrorOf(error);
  return AppError.is(known) ? known : databaseUnavailable(error);
}
