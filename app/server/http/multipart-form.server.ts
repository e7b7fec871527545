import { randomBytes } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { FieldMessages } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { bodyWithin } from "./body-limit.server";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "~/server/media/storage-error.server";
import { logger } from "~/server/platform/logger.server";

export type StagedFile = { field: string; filename: string; path: string; size: number };

/** A form as read: its text fields by name, and its files staged on disk until the request is answered. */
export type Submission = {
  fields: Record<string, string[]>;
  files: StagedFile[];
};

/** A form's limits, and what its fields say when one is crossed. */
export type UploadLimits = {
  /** Per file input name: its byte limit and the message past it. Files from other inputs are refused. */
  files: Record<string, { maxBytes: number; tooLarge: string }>;
  maxFiles: number;
  maxFields: number;
  /** The refusal's field messages when there are more files or fields than allowed. */
  tooMany: FieldMessages;
  maxFieldBytes: number;
  /** Per text field, the message past maxFieldBytes; a longer field without one makes the form unreadable. */
  fieldTooLong: Record<string, string>;
  /** The whole body at most: every file and field at its limit, with the parts' headers. */
  maxBodyBytes: number;
};

/** Room in maxBodyBytes for the parts' boundaries and headers around the largest files and fields. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;

const malformed = (code: "bad-request" | "too-large" = "bad-request") =>
  new AppError(code, { message: messages.formMalformed });

function fieldTooLong(limits: UploadLimits, name: string): AppError {
  const message = limits.fieldTooLong[name];
  return message === undefined ? malformed("too-large") : new AppError("too-large", { fields: { [name]: message } });
}

/**
 * Reads the form and hands it to `use`. Every staged file is removed once `use` has settled, whatever
 * happened, and none is left when the reading itself fails: the one place staged uploads go away.
 */
export async function withSubmission<T>(
  request: Request,
  stagingRoot: string,
  limits: UploadLimits,
  work: (submission: Submission) => Promise<T>,
): Promise<T> {
  const { submission, discard } = await parseSubmission(request, stagingRoot, limits).catch((error: unknown) => {
    if (AppError.is(error) && error.cause) logger.error({ err: error.cause }, "staging an upload failed");
    throw error;
  });
  try {
    return await work(submission);
  } finally {
    await discard();
  }
}

/**
 * Reads a multipart or urlencoded form, streaming every file to a staging directory (never whole
 * in memory) and stopping at the first limit crossed, the whole body's (limits.maxBodyBytes) included.
 * The directory is made only when a file arrives.
 * Throws an AppError (a bad or too large form, or the disk refusing a write); either way nothing
 * staged is left behind.
 */
async function parseSubmission(
  request: Request,
  stagingRoot: string,
  limits: UploadLimits,
): Promise<{ submission: Submission; discard: () => Promise<void> }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body || !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType))
    throw malformed();
  const largest = Math.max(0, ...Object.values(limits.files).map((file) => file.maxBytes));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8", // browsers send file names in UTF-8, not busboy's default latin1
      limits: {
        fileSize: largest + 1,
        files: limits.maxFiles,
        fieldSize: limits.maxFieldBytes,
        fields: limits.maxFields,
      },
    });
  } catch {
    throw malformed(); // e.g. multipart without a boundary
  }

  const staging = new StagingDirectory(stagingRoot);
  const fields: Record<string, string[]> = {};
  const files: StagedFile[] = [];
  let failure: AppError | undefined;
  // Once anything is refused, the rest of the body is not read: the HTTP layer drops it with the answer.
  const stopReading = new AbortController();
  const fail = (error: AppError) => {
    failure ??= error;
    // Not from inside the parser's own event: it is destroyed on abort.
    queueMicrotask(() => stopReading.abort());
  };
  const writes: Promise<unknown>[] = [];

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(fieldTooLong(limits, name));
    (fields[name] ??= []).push(value);
  });
  parser.on("file", (name, stream, info) => {
    // Stopping the reading destroys the file being read with an error: nobody else may be listening.
    stream.on("error", () => undefined);
    const limit = limits.files[name];
    if (limit === undefined || failure) {
      fail(malformed());
      stream.resume();
      return;
    }
    if (!info.filename) {
      stream.resume(); // an empty file input
      return;
    }
    const staged: StagedFile = { field: name, filename: info.filename, path: staging.fileFor(files.length), size: 0 };
    files.push(staged);
    const keepWriting = () => {
      if (staged.size > limit.maxBytes) fail(new AppError("too-large", { fields: { [name]: limit.tooLarge } }));
      return failure === undefined;
    };
    writes.push(pipeline(stream, stagedFileSink(staged, staging, keepWriting, fail)).catch(() => undefined));
  });
  const tooMany = () => fail(new AppError("validation", { fields: limits.tooMany }));
  parser.on("filesLimit", tooMany);
  parser.on("fieldsLimit", tooMany);

  try {
    const body = bodyWithin(request, limits.maxBodyBytes) as import("node:stream/web").ReadableStream;
    await pipeline(Readable.fromWeb(body), parser, { signal: stopReading.signal });
  } catch (error) {
    fail(AppError.is(error) ? error : malformed());
  }
  await Promise.all(writes);
  if (failure) {
    await staging.discard();
    throw failure;
  }
  return { submission: { fields, files }, discard: () => staging.discard() };
}

/** One request's staging folder, created on first use and removed whole. */
class StagingDirectory {
  private readonly dir: string;
  private ready: Promise<unknown> | undefined;

  constructor(root: string) {
    this.dir = path.join(root, `${Date.now()}-${randomBytes(6).toString("hex")}`);
  }

  fileFor(index: number): string {
    return path.join(this.dir, String(index));
  }

  async create(): Promise<void> {
    await (this.ready ??= mkdir(this.dir, { recursive: true }));
  }

  /** Best effort: what cannot be removed now is removed when the server next starts. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Writes one uploaded file to its staged path (created exclusively). It never errors: once anything
 * failed (this write, a limit, another file) it writes no more, and the failure is reported through
 * `fail`, which stops the reading.
 */
function stagedFileSink(
  staged: StagedFile,
  staging: StagingDirectory,
  keepWriting: () => boolean,
  fail: (error: AppError) => void,
): Writable {
  let handle: FileHandle | undefined;
  const close = async () => {
    const current = handle;
    handle = undefined;
    await current?.close();
  };
  const opened = async (): Promise<FileHandle> => {
    if (!handle) {
      await staging.create();
      handle = await open(staged.path, "wx");
    }
    return handle;
  };
  const write = async (chunk: Buffer) => (await opened()).writeFile(chunk);
  const reportingFailure = (work: Promise<void>, done: () => void) =>
    work.then(done, (error: unknown) => {
      fail(storageErrorOf(error));
      done();
    });
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      staged.size += chunk.length;
      if (!keepWriting()) return done();
      reportingFailure(write(chunk), () => done());
    },
    final(done) {
      // An empty file is still staged, so it is checked (and refused) like any other.
      const finish = async () => {
        if (keepWriting()) await opened();
        await close();
      };
      reportingFailure(finish(), () => done());
    },
    destroy(error, done) {
      close().then(
        () => done(error),
        () => done(error),
      );
    },
  });
}
