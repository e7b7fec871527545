/** What an article image says besides itself: its alt text, its caption and its credit (decision 025). */
export type ImageDetails = { alt: string; caption: string; credit: string };

/** Each image's details by its URL; an image without any has no entry. */
export type ImageDetailsMap = Record<string, ImageDetails>;

export const IMAGE_DETAIL_MAX = 300;

export const NO_DETAILS: ImageDetails = { alt: "", caption: "", credit: "" };

const text = (value: unknown) => (typeof value === "string" ? value.slice(0, IMAGE_DETAIL_MAX) : "");

/** The details stored as JSON text; anything unreadable counts as absent. */
export function parseImageDetails(json: string | null): ImageDetailsMap {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const details: ImageDetailsMap = {};
    for (const [url, entry] of Object.entries(value as Record<string, unknown>)) {
      if (!entry || typeof entry !== "object") continue;
      const { alt, caption, credit } = entry as Record<string, unknown>;
      details[url] = { alt: text(alt), caption: text(caption), credit: text(credit) };
    }
    return details;
  } catch {
    return {};
  }
}

/** The details of `images` only, as stored: NULL when none of them has any. */
export function storedImageDetails(details: ImageDetailsMap, images: readonly string[]): string | null {
  const kept = Object.fromEntries(
    images.flatMap((url) => {
      const entry = Object.hasOwn(details, url) ? details[url] : undefined;
      return entry && (entry.alt || entry.caption || entry.credit) ? [[url, entry]] : [];
    }),
  );
  return Object.keys(kept).length > 0 ? JSON.stringify(kept) : null;
}

export function detailsOf(details: ImageDetailsMap, url: string): ImageDetails {
  return (Object.hasOwn(details, url) ? details[url] : undefined) ?? NO_DETAILS;
}
