import type { ErrorBody, ErrorCode, FieldMessages } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { conflictMessages } from "~/lib/newsroom-messages";

/** Each code's HTTP status and the Arabic message a reader gets unless the error names a more precise one. */
export const ERROR_CATALOGUE: Record<ErrorCode, { status: number; message: string }> = {
  "bad-request": { status: 400, message: messages.badRequest },
  validation: { status: 400, message: messages.validationFailed },
  unauthorized: { status: 401, message: messages.signInRequired },
  forbidden: { status: 403, message: messages.forbidden },
  "not-found": { status: 404, message: messages.pageNotFound },
  "method-not-allowed": { status: 405, message: messages.methodNotAllowed },
  conflict: { status: 409, message: messages.conflict },
  "edit-conflict": { status: 409, message: conflictMessages.refused },
  "too-large": { status: 413, message: messages.requestTooLarge },
  "rate-limited": { status: 429, message: messages.rateLimited },
  internal: { status: 500, message: messages.serverError },
  unavailable: { status: 503, message: messages.serviceUnavailable },
  "storage-full": { status: 507, message: messages.storageFull },
};

type AppErrorOptions = {
  /** A more precise message than the code's, from messages.ts. */
  message?: string;
  /** Messages by form field, for validation. */
  fields?: FieldMessages;
  /** A finer code than `code` that a page explains in its own words: the sign-in catalogue's entry. */
  reason?: string;
  /** For rate-limited and unavailable: when to try again. */
  retryAfterSeconds?: number;
  cause?: unknown;
};

/**
 * Every refusal or failure a reader or client may be told about: a stable code, an Arabic message and
 * optionally messages by field. Domain code throws it, never returns it; the HTTP edge answers it
 * (error-response.server.ts, form-refusal.server.ts). Anything else that is thrown is a 500 whose text nobody sees.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldMessages | undefined;
  readonly reason: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fields = options.fields;
    this.reason = options.reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  static is(error: unknown): error is AppError {
    return error instanceof AppError;
  }
}

/** A save based on a version another save has replaced since (decision 034). */
export const isEditConflict = (error: unknown): error is AppError =>
  AppError.is(error) && error.code === "edit-conflict";

/** The AppError `error` is, or the one a library wrapped it in (better-auth's "failed to get session" around a lost database). */
export function appErrorWithin(error: unknown): AppError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (AppError.is(current)) return current;
  }
  return undefined;
}

/** The JSON body every refusal is answered with. */
export function errorBody(error: AppError): ErrorBody {
  const { code, message, reason, fields } = error;
  return { error: { code, message, ...(reason ? { reason } : {}), ...(fields ? { fields } : {}) } };
}
