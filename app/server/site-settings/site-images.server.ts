import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { messages, settingsMessages } from "~/lib/messages";
import type { SiteImages } from "~/lib/site-settings";
import { AppError } from "~/server/platform/app-error.server";
import { storageErrorOf } from "~/server/media/storage-error.server";
import { mediaNameOf, mediaUrlOf, type MediaStorage } from "~/server/media/storage.server";

/** Which upload of the settings form makes which images, at the sizes their uses need. */
export const SITE_IMAGE_UPLOADS = ["logo", "favicon", "shareImage"] as const;
export type SiteImageUpload = (typeof SITE_IMAGE_UPLOADS)[number];

export const MAX_SITE_IMAGE_BYTES = 10 * 1024 * 1024;
const MIN_SIDE = 64;
const MAX_SIDE = 8_000;
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif"]);

type Output = { key: keyof SiteImages; size: [number, number]; fit: "contain" | "cover"; background?: string };

const OUTPUTS: Record<SiteImageUpload, Output[]> = {
  // The header shows 40 px (80 at 2x); JSON-LD asks for a logo of 112 px or more.
  logo: [
    { key: "logo", size: [256, 256], fit: "contain" },
    { key: "icon192", size: [192, 192], fit: "contain", background: "#ffffff" },
    { key: "icon512", size: [512, 512], fit: "contain", background: "#ffffff" },
  ],
  favicon: [
    { key: "favicon32", size: [32, 32], fit: "contain" },
    { key: "appleTouch", size: [180, 180], fit: "contain", background: "#ffffff" },
  ],
  shareImage: [{ key: "shareImage", size: [1200, 630], fit: "cover" }],
};

const refused = (field: SiteImageUpload, message: string) => new AppError("validation", { fields: { [field]: message } });

/**
 * Checks an uploaded image by its bytes (an image, neither tiny nor huge) and stores it as PNG at each
 * size its use needs, under site-images/ (never swept: media-sweep looks at articles' folders only).
 * Returns the URLs made; on a failed write, removes what it stored.
 */
export async function storeSiteImage(storage: MediaStorage, field: SiteImageUpload, stagedPath: string): Promise<Partial<SiteImages>> {
  const input = await readFile(stagedPath);
  let width = 0;
  let height = 0;
  try {
    const metadata = await sharp(input, { failOn: "truncated", limitInputPixels: false }).metadata();
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw new Error("not an image");
    width = metadata.width ?? 0;
    height = metadata.height ?? 0;
  } catch {
    throw refused(field, messages.imageInvalid);
  }
  if (width > MAX_SIDE || height > MAX_SIDE) throw refused(field, settingsMessages.settingsImageHuge);
  if (width < MIN_SIDE || height < MIN_SIDE) throw refused(field, settingsMessages.settingsImageTooSmall);

  const id = randomBytes(8).toString("hex");
  const made: Partial<SiteImages> = {};
  const stored: string[] = [];
  try {
    for (const output of OUTPUTS[field]) {
      const [w, h] = output.size;
      const background = output.background ?? { r: 0, g: 0, b: 0, alpha: 0 };
      const png = await sharp(input, { failOn: "truncated" })
        .rotate()
        .resize({ width: w, height: h, fit: output.fit, background })
        .flatten(output.background ? { background: output.background } : false)
        .png()
        .toBuffer()
        .catch(() => {
          throw refused(field, messages.imageInvalid);
        });
      const name = `site-images/${id}-${output.key.toLowerCase()}-${w}x${h}.png`;
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

/** Removes stored site images no longer named by the settings (best effort, as deleteMedia). */
export async function deleteSiteImages(storage: MediaStorage, urls: readonly (string | null)[]): Promise<void> {
  const names = urls.map((url) => (url ? mediaNameOf(url) : null)).filter((name): name is string => name?.startsWith("site-images/") ?? false);
  if (names.length > 0) await storage.delete(names);
}
