import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";

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
 * in memory) and stopping at the first limit crossed.
 */
export async function parseSubmission(request: Request, stagingRoot: string, limits: UploadLimits): Promise<Submission> {
  const dir = path.join(stagingRoot, `${Date.now()}-${randomBytes(6).toString("hex")}`);
  await mkdir(dir, { recursive: true });
  const discard = () => rm(dir, { recursive: true, force: true });
  const fields: Record<string, string[]> = {};
  const files: StagedFile[] = [];
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body || !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)) {
    await discard();
    throw new UploadError("malformed");
  }

  const largest = Math.max(0, ...Object.values(limits.fileLimits));
  let failure: UploadError | undefined;
  const writes: Promise<void>[] = [];
  const parser = busboy({
    headers: { "content-type": contentType },
    limits: { fileSize: largest + 1, files: limits.maxFiles, fieldSize: limits.maxFieldBytes, fields: limits.maxFields },
  });

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) failure ??= new UploadError("field-too-large", name);
    (fields[name] ??= []).push(value);
  });
  parser.on("file", (name, stream, info) => {
    const limit = limits.fileLimits[name];
    if (limit === undefined || failure) {
      failure ??= new UploadError("unexpected-file", name);
      stream.resume();
      return;
    }
    if (!info.filename) {
      stream.resume(); // an empty file input
      return;
    }
    const staged: StagedFile = { field: name, filename: info.filename, path: path.join(dir, `${files.length}`), size: 0 };
    files.push(staged);
    // Past the limit the rest of the file is read and dropped, so the request still ends normally.
    const limiter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        staged.size += chunk.length;
        if (staged.size <= limit) return done(null, chunk);
        failure ??= new UploadError("file-too-large", name);
        done();
      },
    });
    writes.push(pipeline(stream, limiter, createWriteStream(staged.path)).catch(() => undefined));
  });
  parser.on("filesLimit", () => (failure ??= new UploadError("too-many-parts")));
  parser.on("fieldsLimit", () => (failure ??= new UploadError("too-many-parts")));

  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
  } catch (error) {
    failure ??= error instanceof UploadError ? error : new UploadError("malformed");
  }
  await Promise.all(writes);
  if (failure) {
    await discard();
    throw failure;
  }
  return { fields, files, discard };
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
