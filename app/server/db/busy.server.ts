import { messages } from "~/lib/messages";
import { CACHE } from "~/server/http/cache-policy.server";

const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * The database's write lock stayed taken by another process past the wait deadline. It is a
 * Response so that React Router answers it as it is (resource routes) or renders the error page with
 * its status (documents): 503 with Retry-After, never a 500.
 */
export class DatabaseBusyError extends Response {
  readonly message = "database busy: the SQLite write lock was not released in time";

  constructor() {
    super(JSON.stringify({ error: messages.databaseBusy, message: messages.databaseBusy }), {
      status: 503,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Retry-After": String(BUSY_RETRY_AFTER_SECONDS),
        "Cache-Control": CACHE.never,
      },
    });
  }
}

export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
