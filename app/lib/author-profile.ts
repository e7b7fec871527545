import { z } from "./zod";
import { storyMessages } from "./newsroom-messages";

/* Author pages: a photo, a short bio and a few links. */

export const BIO_MAX = 500;
export const LINKS_MAX = 5;
export const LINK_MAX = 500;
/** Author photos are cropped to this square. */
export const AUTHOR_PHOTO_SIZE = [400, 400] as const;

export type AuthorProfile = { photo: string | null; bio: string | null; links: string[] };

const isWebUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
};

/** The profile form: bio (whitespace folded), links one a line (http/https only), and the photo's removal. */
export const authorProfileSchema = z.object({
  bio: z
    .string()
    .default("")
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(BIO_MAX, storyMessages.bioTooLong))
    .transform((text) => text || null),
  links: z
    .string()
    .default("")
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().max(LINK_MAX, storyMessages.linkInvalid).refine(isWebUrl, storyMessages.linkInvalid))
        .max(LINKS_MAX, storyMessages.tooManyLinks),
    ),
  removePhoto: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
});

/** The links as stored (a JSON list), read back; anything else is no links. */
export function parseLinks(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value)
      ? value.filter((link): link is string => typeof link === "string" && isWebUrl(link))
      : [];
  } catch {
    return [];
  }
}
