import type { Readable } from "node:stream";

/*
 * Where stored media live, behind one interface (Ghost's storage adapters are the model): the domain
 * names a file by its stored name (`news-images/{id}-{slug}.webp`), never by a path or a bucket key,
 * and its public URL stays `/media/<name>` whichever driver holds it.
 */

/** A stored file as a listing or a stat sees it. */
export type StoredFile = { name: string; size: number; modifiedAt: Date; etag?: string; contentType?: string };

/** A byte range as a client asks for it: from `start` (to `end`, inclusive), or the last `suffix` bytes. */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/** The inclusive byte range `range` covers in a file of `size` bytes, or null when it starts past the end. */
export function resolveRange(range: RangeRequest, size: number): { start: number; end: number } | null {
  if ("suffix" in range)
    return size === 0 || range.suffix === 0 ? null : { start: Math.max(0, size - range.suffix), end: size - 1 };
  if (range.start >= size) return null;
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

export type MediaRead =
  | { status: "missing" }
  /** The file exists, but the range starts past its end. */
  | { status: "unsatisfiable"; size: number }
  | {
      status: "found";
      body: Readable;
      /** The whole file's size, whatever the range. */
      size: number;
      /** The bytes `body` carries, inclusive; null for the whole file. */
      range: { start: number; end: number } | null;
      contentType: string;
      etag: string | undefined;
      modifiedAt: Date | undefined;
    };

/** What goes into a stored file: bytes in memory, or a file on the local disk (a staged upload). */
export type MediaSource = Buffer | { path: string };

export interface MediaStorage {
  readonly driver: "local" | "s3";
  /** Throws when the storage cannot be used at all; checked once, before the server listens. */
  verify(): Promise<void>;
  /** Stores a new file under `name`; a failed put leaves nothing behind and throws what storageErrorOf turns into an AppError. */
  put(name: string, source: MediaSource, contentType: string): Promise<void>;
  /** Removes the named files at best effort; returns the names it could not remove (already gone is removed). */
  delete(names: readonly string[]): Promise<string[]>;
  read(name: string, range?: RangeRequest): Promise<MediaRead>;
  stat(name: string): Promise<StoredFile | null>;
  /** Every file directly under `folder` (e.g. `news-images`); a missing folder has none. */
  list(folder: string): Promise<StoredFile[]>;
}

/** The URL path prefix of every stored file, whichever driver holds it. */
export const MEDIA_URL_PREFIX = "/media/";

const NAME_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Whether `name` can be a stored file's name: one to three `/`-separated segments of ASCII letters,
 * digits, dots, dashes and underscores, none starting with a dot. Rules out `..`, the staging folder,
 * absolute paths and anything a bucket or a file system would read differently.
 */
export function isMediaName(name: string): boolean {
  const segments = name.split("/");
  return segments.length <= 3 && segments.every((segment) => NAME_SEGMENT.test(segment));
}

/** The stored name behind a `/media/...` URL, or null for a URL from elsewhere or a name we never store. */
export function mediaNameOf(url: string): string | null {
  if (!url.startsWith(MEDIA_URL_PREFIX)) return null;
  const name = url.slice(MEDIA_URL_PREFIX.length);
  return isMediaName(name) ? name : null;
}

export function mediaUrlOf(name: string): string {
  return `${MEDIA_URL_PREFIX}${name}`;
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  avif: "image/avif",
  mp4: "video/mp4",
  webm: "video/webm",
};

/** The Content-Type of a stored file by its extension, for files stored before their type was recorded. */
export function contentTypeOf(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}
