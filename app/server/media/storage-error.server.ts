import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";

const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/**
 * The disk refused a write: full (507) or failing in another way (503). Never the uploader's fault.
 * An AppError stays as it is.
 */
export function storageErrorOf(error: unknown): AppError {
  if (AppError.is(error)) return error;
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  if (errno && FULL.has(errno)) return new AppError("storage-full", { cause: error });
  return new AppError("unavailable", { message: messages.storageUnavailable, cause: error });
}
