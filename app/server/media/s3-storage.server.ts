import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { CACHE } from "~/server/platform/cache-control.server";
import type { S3Settings } from "~/server/platform/config.server";
import {
  contentTypeOf,
  isMediaName,
  resolveRange,
  type MediaRead,
  type MediaSource,
  type MediaStorage,
  type RangeRequest,
  type StoredFile,
} from "./storage.server";

/** Parts of a multipart upload (a video): S3's minimum is 5 MiB; four in flight bound the memory to 32 MiB. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // A custom endpoint (MinIO, R2, B2, s3rver) is addressed by path: its buckets are not DNS names.
    forcePathStyle: settings.endpoint !== undefined,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's default checksums are refused by R2 and B2 and stored as part of the file by s3rver.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/** "bytes 2-4/11" → { start: 2, end: 4, size: 11 }. */
function parseContentRange(value: string | undefined): { start: number; end: number; size: number } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? "");
  return match ? { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) } : null;
}

function rangeHeader(range: { start: number; end?: number }): string {
  return `bytes=${range.start}-${range.end ?? ""}`;
}

/**
 * An S3-compatible bucket (AWS, R2, B2, MinIO) as storage: one object per stored name, its key the
 * name itself, so `/media/<name>` maps to `<bucket>/<name>` and a CDN in front of the bucket
 * serves the same names.
 */
export function s3Storage(settings: S3Settings): MediaStorage {
  const client = s3Client(settings);
  const Bucket = settings.bucket;

  const stat = async (name: string): Promise<StoredFile | null> => {
    if (!isMediaName(name)) return null;
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: name }));
      return {
        name,
        size: head.ContentLength ?? 0,
        modifiedAt: head.LastModified ?? new Date(0),
        etag: head.ETag,
        contentType: head.ContentType,
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  };

  return {
    driver: "s3",

    /** The bucket exists and answers these keys. */
    async verify(): Promise<void> {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async put(name: string, source: MediaSource, contentType: string): Promise<void> {
      const params = { Bucket, Key: name, ContentType: contentType, CacheControl: CACHE.media };
      if (Buffer.isBuffer(source)) {
        await client.send(new PutObjectCommand({ ...params, Body: source, ContentLength: source.length }));
        return;
      }
      // Multipart from the staged file: never whole in memory; a file under one part is a single PUT.
      const upload = new Upload({
        client,
        params: { ...params, Body: createReadStream(source.path) },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      await upload.done();
    },

    async delete(names: readonly string[]): Promise<string[]> {
      // One DELETE per object: DeleteObjects needs a Content-MD5 or checksum that not every S3-compatible service takes.
      const results = await Promise.allSettled(
        names.map((name) => client.send(new DeleteObjectCommand({ Bucket, Key: name }))),
      );
      return names.filter((_, i) => results[i]?.status === "rejected");
    },

    async read(name: string, range?: RangeRequest): Promise<MediaRead> {
      if (!isMediaName(name)) return { status: "missing" };
      try {
        let bytes: { start: number; end?: number } | undefined = range && "start" in range ? range : undefined;
        if (range && "suffix" in range) {
          // Not every S3-compatible service reads `bytes=-N` as the last N bytes (s3rver reads 0-N): ask for the size first.
          const found = await stat(name);
          if (!found) return { status: "missing" };
          bytes = resolveRange(range, found.size) ?? undefined;
          if (!bytes) return { status: "unsatisfiable", size: found.size };
        }
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: name, Range: bytes ? rangeHeader(bytes) : undefined }),
        );
        const partial = parseContentRange(object.ContentRange);
        return {
          status: "found",
          body: object.Body as Readable,
          size: partial?.size ?? object.ContentLength ?? 0,
          range: partial ? { start: partial.start, end: partial.end } : null,
          contentType: object.ContentType ?? contentTypeOf(name),
          etag: object.ETag,
          modifiedAt: object.LastModified,
        };
      } catch (error) {
        const status = statusOf(error);
        if (status === 404) return { status: "missing" };
        if (status === 416) {
          // A 416 says nothing of the size that Content-Range must tell, so it is asked for.
          const found = await stat(name);
          return found ? { status: "unsatisfiable", size: found.size } : { status: "missing" };
        }
        throw error;
      }
    },

    stat,

    async list(folder: string): Promise<StoredFile[]> {
      const files: StoredFile[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${folder}/`, Delimiter: "/", ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key)
            files.push({ name: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return files;
    },
  };
}
