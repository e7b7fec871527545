import { randomBytes } from "node:crypto";
import { open, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { BoundedCache } from "~/lib/bounded-cache";
import { IMAGE_WIDTHS, variantUrl } from "~/lib/images";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "./storage-error.server";
import { mediaNameOf, mediaUrlOf, type MediaStorage } from "./storage.server";

const MAX_STORED_WIDTH = 1600;
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
const ACCEPTED_IMAGE_FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif", "gif"]);

const invalidImage = () => new AppError("validation", { message: newsroomMessages.imageInvalid });

/** A readable slug from an uploaded file's name: ASCII letters, digits and dashes only; may be empty. */
export function sanitizeFileStem(filename: string): string {
  const stem = path.basename(filename.replace(/\\/g, "/")).replace(/\.[^.]*$/, "");
  return stem
    .normalize("NFKD")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .toLowerCase();
}

/** A stored file's name (without extension): a random id that no other upload shares, then the slug. */
function storedName(filename: string): string {
  const id = randomBytes(8).toString("hex");
  const slug = sanitizeFileStem(filename);
  return slug ? `${id}-${slug}` : id;
}

/** The stored names behind one media URL: an image's full-size file and its width variants, or the video. */
export function mediaNamesOf(url: string): string[] {
  const variants = url.endsWith(".webp") ? IMAGE_WIDTHS.map((w) => variantUrl(url.slice(0, -".webp".length), w)) : [];
  return [url, ...variants].map(mediaNameOf).filter((name): name is string => name !== null);
}

async function encodeImage(input: Buffer, widths: number[]): Promise<Buffer[]> {
  try {
    const metadata = await sharp(input, { failOn: "truncated" }).metadata();
    if (!metadata.format || !ACCEPTED_IMAGE_FORMATS.has(metadata.format)) throw invalidImage();
    const source = sharp(input, { failOn: "truncated" }).rotate();
    return await Promise.all(
      widths.map((width) =>
        source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
      ),
    );
  } catch {
    throw invalidImage();
  }
}

/**
 * Checks an image by its bytes, then re-encodes it into WebP at full size and at each width of
 * IMAGE_WIDTHS under news-images/{id}-{slug}; returns the full-size file's public URL. A failed
 * write removes what this call stored and throws storageErrorOf's AppError; bytes that are not an
 * image, a validation AppError.
 */
export async function storeImage(storage: MediaStorage, input: Buffer, filename: string): Promise<string> {
  return (await storeSizedImage(storage, input, filename)).url;
}

/** A stored image's URL and the full-size file's width and height. */
export type StoredImage = { url: string; width: number | null; height: number | null };

/** storeImage, with the size of what it stored (for the media library's row). */
export async function storeSizedImage(storage: MediaStorage, input: Buffer, filename: string): Promise<StoredImage> {
  const base = `news-images/${storedName(filename)}`;
  const outputs = [
    { width: MAX_STORED_WIDTH, name: `${base}.webp` },
    ...IMAGE_WIDTHS.map((width) => ({ width, name: variantUrl(base, width) })),
  ];
  const encoded = await encodeImage(
    input,
    outputs.map((o) => o.width),
  );
  const stored: string[] = [];
  try {
    for (const [index, { name }] of outputs.entries()) {
      await storage.put(name, encoded[index]!, "image/webp");
      stored.push(name);
    }
  } catch (error) {
    await storage.delete(stored);
    throw storageErrorOf(error);
  }
  const { width, height } = await sharp(encoded[0]!).metadata();
  return { url: mediaUrlOf(`${base}.webp`), width: width ?? null, height: height ?? null };
}

export async function storeImageFile(
  storage: MediaStorage,
  stagedPath: string,
  filename: string,
): Promise<StoredImage> {
  return storeSizedImage(storage, await readFile(stagedPath), filename);
}

const VIDEO_TYPES = { mp4: "video/mp4", webm: "video/webm" } as const;

function videoExtension(head: Buffer): keyof typeof VIDEO_TYPES | null {
  if (head.length >= 12 && head.subarray(4, 8).toString("latin1") === "ftyp") return "mp4";
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  return null;
}

/** Stores a staged video (already streamed to disk) under news-videos/ when its bytes say MP4 or WebM. */
export async function storeVideoFile(storage: MediaStorage, stagedPath: string, filename: string): Promise<string> {
  const extension = videoExtension(await readHead(stagedPath));
  if (!extension) throw new AppError("validation", { message: newsroomMessages.videoInvalid });
  const name = `news-videos/${storedName(filename)}.${extension}`;
  try {
    await storage.put(name, { path: stagedPath }, VIDEO_TYPES[extension]);
  } catch (error) {
    throw storageErrorOf(error); // a failed put leaves nothing: each driver removes its partial file or upload
  }
  return mediaUrlOf(name);
}

/**
 * Removes every stored file behind the given media URLs (an image's variants included); URLs from
 * elsewhere are ignored. Best effort, never throws: returns the names that could not be removed (the
 * sweep at start removes them later).
 */
export async function deleteMedia(storage: MediaStorage, urls: readonly string[]): Promise<string[]> {
  return storage.delete(urls.flatMap(mediaNamesOf));
}

type ImageSize = { width: number; height: number };

/** A stored file never changes under its name: its size is read once. */
const imageSizes = new BoundedCache<string, Promise<ImageSize | null>>({ maxEntries: 5_000 });

/** Width and height of a stored image (null when it cannot be read), read once and remembered. */
export function storedImageSize(storage: MediaStorage, url: string): Promise<ImageSize | null> {
  return imageSizes.get(url, () => readImageSize(storage, url).catch(() => null));
}

// The whole file: libwebp will not read the size from a truncated WebP.
async function readImageSize(storage: MediaStorage, url: string): Promise<ImageSize | null> {
  const name = mediaNameOf(url);
  if (!name) return null;
  const read = await storage.read(name);
  if (read.status !== "found") return null;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(chunk as Buffer);
  const { width, height } = await sharp(Buffer.concat(chunks)).metadata();
  return width && height ? { width, height } : null;
}

/** The first bytes of a staged file, for checks by content rather than by name. */
async function readHead(file: string, length = 64): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
