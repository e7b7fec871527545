import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";

const BUSY_RETRY_AFTER_SECONDS = 5;

/** The database's write lock stayed taken by another process past the wait deadline: 503 with Retry-After, never a 500. */
export function databaseBusy(): AppError {
  return new AppError("unavailable", { message: messages.databaseBusy, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
}

export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
