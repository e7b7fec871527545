import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_WIDTHS, variantUrl } from "~/lib/images";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "./storage-error.server";
import { readHead } from "./uploads.server";

const MAX_STORED_WIDTH = 1600;
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
const ACCEPTED_IMAGE_FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif", "gif"]);

const invalidImage = () => new AppError("validation", { message: messages.imageInvalid });

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

function fileOf(mediaDir: string, url: string): string | null {
  if (!url.startsWith("/media/")) return null;
  const file = path.resolve(mediaDir, url.slice("/media/".length));
  return file.startsWith(path.resolve(mediaDir) + path.sep) ? file : null;
}

/** The files behind one media URL: an image's full-size file and its width variants, or the video. */
export function mediaFilesOf(mediaDir: string, url: string): string[] {
  const variants = url.endsWith(".webp") ? IMAGE_WIDTHS.map((w) => variantUrl(url.slice(0, -".webp".length), w)) : [];
  return [url, ...variants].map((u) => fileOf(mediaDir, u)).filter((f): f is string => f !== null);
}

async function encodeImage(input: Buffer, widths: number[]): Promise<Buffer[]> {
  try {
    const metadata = await sharp(input, { failOn: "truncated" }).metadata();
    if (!metadata.format || !ACCEPTED_IMAGE_FORMATS.has(metadata.format)) throw invalidImage();
    const source = sharp(input, { failOn: "truncated" }).rotate();
    return await Promise.all(widths.map((width) => source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer()));
  } catch {
    throw invalidImage();
  }
}

/**
 * Checks an image by its bytes, then re-encodes it into WebP at full size and at each width of
 * IMAGE_WIDTHS under news-images/{id}-{slug}; returns the full-size file's public URL. Files are
 * created exclusively, never over another; a failed write removes what this call wrote and throws
 * storageErrorOf's AppError; bytes that are not an image, a validation AppError.
 */
export async function storeImage(mediaDir: string, input: Buffer, filename: string): Promise<string> {
  const base = `/media/news-images/${storedName(filename)}`;
  const outputs = [
    { width: MAX_STORED_WIDTH, url: `${base}.webp` },
    ...IMAGE_WIDTHS.map((width) => ({ width, url: variantUrl(base, width) })),
  ];
  const encoded = await encodeImage(input, outputs.map((o) => o.width));
  const written: string[] = [];
  try {
    await mkdir(path.join(mediaDir, "news-images"), { recursive: true });
    for (const [index, { url }] of outputs.entries()) {
      const file = path.join(mediaDir, url.slice("/media/".length));
      written.push(file); // a half-written file is ours to remove too
      await writeFile(file, encoded[index]!, { flag: "wx" });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") written.pop(); // that name was someone else's
    await removeFiles(written);
    throw storageErrorOf(error);
  }
  return `${base}.webp`;
}

export async function storeImageFile(mediaDir: string, stagedPath: string, filename: string): Promise<string> {
  return storeImage(mediaDir, await readFile(stagedPath), filename);
}

function videoExtension(head: Buffer): "mp4" | "webm" | null {
  if (head.length >= 12 && head.subarray(4, 8).toString("latin1") === "ftyp") return "mp4";
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  return null;
}

/** Stores a staged video (already streamed to disk) under news-videos/ when its bytes say MP4 or WebM. */
export async function storeVideoFile(mediaDir: string, stagedPath: string, filename: string): Promise<string> {
  const extension = videoExtension(await readHead(stagedPath));
  if (!extension) throw new AppError("validation", { message: messages.videoInvalid });
  const url = `/media/news-videos/${storedName(filename)}.${extension}`;
  try {
    await mkdir(path.join(mediaDir, "news-videos"), { recursive: true });
    // A link, unlike a rename, fails rather than replace a file that already has the name.
    await link(stagedPath, path.join(mediaDir, url.slice("/media/".length)));
  } catch (error) {
    throw storageErrorOf(error);
  }
  return url;
}

/**
 * Removes every file behind the given media URLs (an image's variants included); URLs from elsewhere
 * are ignored. Best effort, never throws: returns the files that could not be removed (the sweep at
 * start removes them later).
 */
export async function deleteMedia(mediaDir: string, urls: readonly string[]): Promise<string[]> {
  return removeFiles(urls.flatMap((url) => mediaFilesOf(mediaDir, url)));
}

async function removeFiles(files: readonly string[]): Promise<string[]> {
  const results = await Promise.allSettled(files.map((file) => rm(file, { force: true })));
  return files.filter((_, i) => results[i]?.status === "rejected");
}

const dimensionCache = new Map<string, { width: number; height: number } | null>();

/** Width and height of a stored image file, read from its header once and remembered. */
export async function storedImageSize(mediaDir: string, url: string): Promise<{ width: number; height: number } | null> {
  if (dimensionCache.has(url)) return dimensionCache.get(url) ?? null;
  const file = fileOf(mediaDir, url);
  let size: { width: number; height: number } | null = null;
  if (file) {
    try {
      const { width, height } = await sharp(file).metadata();
      size = width && height ? { width, height } : null;
    } catch {
      size = null;
    }
  }
  if (dimensionCache.size > 5_000) dimensionCache.clear();
  dimensionCache.set(url, size);
  return size;
}
