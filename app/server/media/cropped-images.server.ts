import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "./storage-error.server";
import { mediaUrlOf, type MediaStorage } from "./storage.server";

/*
 * Uploaded pictures made into fixed sizes (the settings' logo, icons and share image; an article's
 * share picture; an author's photo): checked by their bytes, then each size stored as PNG.
 */

export const MIN_SIDE = 64;
export const MAX_SIDE = 8_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif"]);

/** One size to make: its name in the stored file's name, its box, how the picture fills it. */
export type CroppedOutput<K extends string> = { key: K; size: readonly [number, number]; fit: "contain" | "cover"; background?: string };

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
    throw refused(messages.imageInvalid);
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
          throw refused(messages.imageInvalid);
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
