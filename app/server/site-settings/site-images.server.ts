import { settingsMessages } from "~/lib/newsroom-messages";
import type { SiteImages } from "~/lib/site-settings";
import { SHARE_IMAGE_SIZE } from "~/lib/story-fields";
import { storeCroppedImages, type CroppedOutput } from "~/server/media/cropped-images.server";
import { mediaNameOf, type MediaStorage } from "~/server/media/storage.server";

/** Which upload of the settings form makes which images, at the sizes their uses need. */
export const SITE_IMAGE_UPLOADS = ["logo", "favicon", "shareImage"] as const;
export type SiteImageUpload = (typeof SITE_IMAGE_UPLOADS)[number];

export const MAX_SITE_IMAGE_BYTES = 10 * 1024 * 1024;

type Output = CroppedOutput<keyof SiteImages>;

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
  shareImage: [{ key: "shareImage", size: SHARE_IMAGE_SIZE, fit: "cover" }],
};

/**
 * Checks an uploaded image by its bytes and stores it as PNG at each size its use needs, under
 * site-images/ (never swept: media-sweep looks at articles' folders only). Returns the URLs made.
 */
export async function storeSiteImage(
  storage: MediaStorage,
  field: SiteImageUpload,
  stagedPath: string,
): Promise<Partial<SiteImages>> {
  const upload = {
    field,
    folder: "site-images",
    tooSmall: settingsMessages.settingsImageTooSmall,
    huge: settingsMessages.settingsImageHuge,
  };
  return storeCroppedImages(storage, upload, stagedPath, OUTPUTS[field]);
}

/** Removes stored site images no longer named by the settings (best effort, as deleteMedia). */
export async function deleteSiteImages(storage: MediaStorage, urls: readonly (string | null)[]): Promise<void> {
  const names = urls
    .map((url) => (url ? mediaNameOf(url) : null))
    .filter((name): name is string => name?.startsWith("site-images/") ?? false);
  if (names.length > 0) await storage.delete(names);
}
