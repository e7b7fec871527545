import { randomBytes } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { StorageError, storageErrorOf } from "./storage-error.server";

export type StagedFile = { field: string; filename: string; path: string; size: number };

export type Submission = {
  fields: Record<string, string[]>;
  files: StagedFile[];
  /** Removes every staged file; call it whatever happens. */
  discard: () => Promise<void>;
};

export type UploadLimits = {
  /** Byte limit per file input name; files from other inputs are refused. */
  fileLimits: Record<string, number>;
  maxFiles: number;
  maxFieldBytes: number;
  maxFields: number;
};

export type UploadErrorCode = "file-too-large" | "field-too-large" | "too-many-parts" | "unexpected-file" | "malformed";

export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    readonly field?: string,
  ) {
    super(code);
  }
}

/** The folder inside MEDIA_DIR where uploads wait until they are checked: never part of the site's data. */
export const STAGING_DIR_NAME = ".staging";

/**
 * Reads a multipart or urlencoded form, streaming every file to a staging directory (never whole
 * in memory) and stopping at the first limit crossed. The directory is made only when a file arrives.
 * Throws an UploadError for a bad form and a StorageError when the disk refuses a write; either way
 * nothing staged is left behind.
 */
export async function parseSubmission(request: Request, stagingRoot: string, limits: UploadLimits): Promise<Submission> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body || !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)) throw new UploadError("malformed");
  const largest = Math.max(0, ...Object.values(limits.fileLimits));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8", // browsers send file names in UTF-8, not busboy's default latin1
      limits: { fileSize: largest + 1, files: limits.maxFiles, fieldSize: limits.maxFieldBytes, fields: limits.maxFields },
    });
  } catch {
    throw new UploadError("malformed"); // e.g. multipart without a boundary
  }

  const staging = new StagingDirectory(stagingRoot);
  const fields: Record<string, string[]> = {};
  const files: StagedFile[] = [];
  let failure: UploadError | StorageError | undefined;
  const fail = (error: UploadError | StorageError) => (failure ??= error);
  const writes: Promise<unknown>[] = [];

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new UploadError("field-too-large", name));
    (fields[name] ??= []).push(value);
  });
  parser.on("file", (name, stream, info) => {
    const limit = limits.fileLimits[name];
    if (limit === undefined || failure) {
      fail(new UploadError("unexpected-file", name));
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
      if (staged.size > limit) fail(new UploadError("file-too-large", name));
      return failure === undefined;
    };
    writes.push(pipeline(stream, stagedFileSink(staged, staging, keepWriting, fail)).catch(() => undefined));
  });
  parser.on("filesLimit", () => fail(new UploadError("too-many-parts")));
  parser.on("fieldsLimit", () => fail(new UploadError("too-many-parts")));

  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
  } catch (error) {
    fail(error instanceof UploadError ? error : new UploadError("malformed"));
  }
  await Promise.all(writes);
  if (failure) {
    await staging.discard();
    throw failure;
  }
  return { fields, files, discard: () => staging.discard() };
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
 * Writes one uploaded file to its staged path (created exclusively). It never errors, so the upload
 * is always read to its end and the request finishes: once anything failed (this write, a limit,
 * another file) the rest is read and dropped, and the failure is reported through `fail`.
 */
function stagedFileSink(
  staged: StagedFile,
  staging: StagingDirectory,
  keepWriting: () => boolean,
  fail: (error: StorageError) => void,
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

/** The first bytes of a staged file, for checks by content rather than by name. */
export async function readHead(file: string, length = 64): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
