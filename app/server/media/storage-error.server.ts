/** The disk refused a write: full (507) or failing in another way (503). Never the uploader's fault. */
export class StorageError extends Error {
  constructor(
    readonly code: "storage-full" | "storage-unavailable",
    options?: { cause?: unknown },
  ) {
    super(code, options);
  }
}

const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** A file system error as a StorageError (a StorageError stays as it is). */
export function storageErrorOf(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  return new StorageError(errno && FULL.has(errno) ? "storage-full" : "storage-unavailable", { cause: error });
}
