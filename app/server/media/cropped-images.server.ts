import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "./storage-error.server";
import type { FocalPoint } from "~/lib/media-library";
import { mediaNameOf, mediaUrlOf, type MediaStorage } from "./storage.server";

/*
 * Uploaded pictures made into fixed sizes (the settings' logo, icons and share image; an article's
 * share picture; an author's photo): checked by their bytes, then each size stored as PNG.
 */

export const MIN_SIDE = 64;
export const MAX_SIDE = 8_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif"]);

/** One size to make: its name in the stored file's name, its box, how the picture fills it. */
export type CroppedOutput<K extends string> = {
  key: K;
  size: readonly [number, number];
  fit: "contain" | "cover";
  background?: string;
};

/** The field the refusals name, what they say of a huge or tiny picture, and the folder the files go to. */
export type CroppedUpload = { field: string; folder: string; tooSmall: string; huge: string };

/**
 * Checks an uploaded picture by its bytes (an image, neither tiny nor huge) and stores it as PNG at
 * each of `outputs`' sizes under `upload.folder`. Returns the URLs made, by key; on a failed write,
 * removes what it stored.
 */
export async function storeCroppedImages<K extends string>(
  storage: MediaStorage,
  upload: CroppedUpload,
  stagedPath: string,
  outputs: readonly CroppedOutput<K>[],
): Promise<Partial<Record<K, string>>> {
  const refused = (message: string) => new AppError("validation", { fields: { [upload.field]: message } });
  const input = await readFile(stagedPath);
  let width = 0;
  let height = 0;
  try {
    const metadata = await sharp(input, { failOn: "truncated", limitInputPixels: false }).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw new Error("not an image");
    width = metadata.width ?? 0;
    height = metadata.height ?? 0;
  } catch {
    throw refused(newsroomMessages.imageInvalid);
  }
  if (width > MAX_SIDE || height > MAX_SIDE) throw refused(upload.huge);
  if (width < MIN_SIDE || height < MIN_SIDE) throw refused(upload.tooSmall);

  const id = randomBytes(8).toString("hex");
  const made: Partial<Record<K, string>> = {};
  const stored: string[] = [];
  try {
    for (const output of outputs) {
      const [w, h] = output.size;
      const background = output.background ?? { r: 0, g: 0, b: 0, alpha: 0 };
      const png = await sharp(input, { failOn: "truncated" })
        .rotate()
        .resize({ width: w, height: h, fit: output.fit, background })
        .flatten(output.background ? { background: output.background } : false)
        .png()
        .toBuffer()
        .catch(() => {
          throw refused(newsroomMessages.imageInvalid);
        });
      const name = `${upload.folder}/${id}-${output.key.toLowerCase()}-${w}x${h}.png`;
      await storage.put(name, png, "image/png").catch((error: unknown) => {
        throw storageErrorOf(error);
      });
      stored.push(name);
      made[output.key] = mediaUrlOf(name);
    }
  } catch (error) {
    await storage.delete(stored);
    throw error;
  }
  return made;
}

/** Where a box of `size` cut from an image of `width`×`height` scaled to cover it keeps `focal` in frame (as near its centre as the edges allow). */
export function focalCrop(width: number, height: number, size: readonly [number, number], focal: FocalPoint) {
  const [w, h] = size;
  const scale = Math.max(w / width, h / height);
  const scaled = { width: Math.round(width * scale), height: Math.round(height * scale) };
  const clamp = (value: number, max: number) => Math.min(Math.max(0, Math.round(value)), max);
  return {
    scaled,
    left: clamp(focal.x * scaled.width - w / 2, scaled.width - w),
    top: clamp(focal.y * scaled.height - h / 2, scaled.height - h),
  };
}

/**
 * A stored image cut to `size` around its focal point, stored once as JPEG under focal-crops/ by the
 * image's name and the point (a later point makes another file); its URL, or null when the image
 * cannot be read.
 */
export async function storedFocalCrop(
  storage: MediaStorage,
  url: string,
  focal: FocalPoint,
  size: readonly [number, number],
): Promise<string | null> {
  const source = mediaNameOf(url);
  if (!source) return null;
  const stem = source.slice(source.lastIndexOf("/") + 1).replace(/\.[a-z0-9]+$/i, "");
  const name = `focal-crops/${stem}-${Math.round(focal.x * 1000)}-${Math.round(focal.y * 1000)}-${size[0]}x${size[1]}.jpg`;
  if (await storage.stat(name).catch(() => null)) return mediaUrlOf(name);
  const read = await storage.read(source).catch(() => null);
  if (read?.status !== "found") return null;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(chunk as Buffer);
  try {
    const input = Buffer.concat(chunks);
    const { width, height } = await sharp(input).metadata();
    if (!width || !height) return null;
    const { scaled, left, top } = focalCrop(width, height, size, focal);
    const jpeg = await sharp(input)
      .resize(scaled)
      .extract({ left, top, width: size[0], height: size[1] })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82 })
      .toBuffer();
    await storage.put(name, jpeg, "image/jpeg");
    return mediaUrlOf(name);
  } catch {
    return null;
  }
}
