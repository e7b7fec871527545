import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { IMAGE_WIDTHS, variantUrl } from "~/lib/images";
import { readHead } from "./uploads.server";

const MAX_STORED_WIDTH = 1600;
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
const ACCEPTED_IMAGE_FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif", "gif"]);

export class MediaError extends Error {
  constructor(readonly code: "invalid-image" | "invalid-video") {
    super(code);
  }
}

/** A safe file name stem: ASCII letters, digits and dashes only. */
export function sanitizeFileStem(filename: string): string {
  const stem = path.basename(filename.replace(/\\/g, "/")).replace(/\.[^.]*$/, "");
  const safe = stem
    .normalize("NFKD")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .toLowerCase();
  return safe || "file";
}

function fileOf(mediaDir: string, url: string): string | null {
  if (!url.startsWith("/media/")) return null;
  const file = path.resolve(mediaDir, url.slice("/media/".length));
  return file.startsWith(path.resolve(mediaDir) + path.sep) ? file : null;
}

/**
 * Checks an image by its bytes, then re-encodes it into WebP at full size and at each width of
 * IMAGE_WIDTHS under news-images/{timestamp}-{name}; returns the full-size file's public URL.
 */
export async function storeImage(mediaDir: string, input: Buffer, filename: string, now = Date.now()): Promise<string> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { failOn: "truncated" }).metadata();
  } catch {
    throw new MediaError("invalid-image");
  }
  if (!metadata.format || !ACCEPTED_IMAGE_FORMATS.has(metadata.format)) throw new MediaError("invalid-image");
  const stem = `${now}-${sanitizeFileStem(filename)}`;
  const base = `/media/news-images/${stem}`;
  const outputs = [
    { width: MAX_STORED_WIDTH, url: `${base}.webp` },
    ...IMAGE_WIDTHS.map((width) => ({ width, url: variantUrl(base, width) })),
  ];
  await mkdir(path.join(mediaDir, "news-images"), { recursive: true });
  try {
    const source = sharp(input, { failOn: "truncated" }).rotate();
    for (const { width, url } of outputs) {
      const data = await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
      await writeFile(path.join(mediaDir, url.slice("/media/".length)), data);
    }
  } catch {
    await deleteMedia(mediaDir, [`${base}.webp`]);
    throw new MediaError("invalid-image");
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

/** Moves a staged video (already streamed to disk) into news-videos/ when its bytes say MP4 or WebM. */
export async function storeVideoFile(mediaDir: string, stagedPath: string, filename: string, now = Date.now()): Promise<string> {
  const extension = videoExtension(await readHead(stagedPath));
  if (!extension) throw new MediaError("invalid-video");
  const url = `/media/news-videos/${now}-${sanitizeFileStem(filename)}.${extension}`;
  await mkdir(path.join(mediaDir, "news-videos"), { recursive: true });
  await rename(stagedPath, path.join(mediaDir, url.slice("/media/".length)));
  return url;
}

/** Every file behind the given media URLs (an image's variants included); URLs from elsewhere are ignored. */
export async function deleteMedia(mediaDir: string, urls: readonly string[]): Promise<void> {
  const files = urls.flatMap((url) => {
    const variants = url.endsWith(".webp") ? IMAGE_WIDTHS.map((w) => variantUrl(url.slice(0, -".webp".length), w)) : [];
    return [url, ...variants].map((u) => fileOf(mediaDir, u)).filter((f): f is string => f !== null);
  });
  await Promise.all(files.map((file) => rm(file, { force: true })));
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
