import { z } from "./zod";
import { storyMessages } from "./newsroom-messages";
import { slugWords } from "./slugs";

/* The story's own fields (decision 033): standfirst, readable slug, share overrides, noindex. */

export const STANDFIRST_MAX = 300;
export const SLUG_MAX = 40;
export const SHARE_TITLE_MAX = 120;
export const SHARE_DESCRIPTION_MAX = 300;
/** Share pictures are cropped to this, as the settings' default share image is. */
export const SHARE_IMAGE_SIZE = [1200, 630] as const;

export type StoryFields = {
  standfirst: string | null;
  /** The last segment of the article's readable address; null until its first publication (or for a title with no letters). */
  slug: string | null;
  shareTitle: string | null;
  shareDescription: string | null;
  /** A stored media URL, cropped to SHARE_IMAGE_SIZE. */
  shareImage: string | null;
  noindex: boolean;
};

/** Path segments an article's address already gives another meaning (app/routes.ts: /news/:id/delete). */
const RESERVED_SLUGS = new Set(["delete"]);

const unreserved = (slug: string) => (RESERVED_SLUGS.has(slug) ? `${slug}-1` : slug);

/** A title as an address segment: its words (lib/slugs.ts) joined by hyphens, cut at a word within SLUG_MAX; null when none is left. */
export function slugOf(title: string): string | null {
  const words = slugWords(title);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    slug = next;
  }
  if (!slug && words[0]) slug = words[0].slice(0, SLUG_MAX);
  return slug ? unreserved(slug) : null;
}

/** A slug an editor typed, made a slug the same way but never cut: "too-long" when it would not fit. */
export function editedSlug(text: string): string | null | "too-long" {
  const slug = slugWords(text).join("-");
  if (slug.length > SLUG_MAX) return "too-long";
  return slug ? unreserved(slug) : null;
}

/** A text field that may be left empty (null), whitespace folded, with a limit. */
const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(max, tooLong))
    .optional()
    .transform((text) => (text && /[^\s\p{Cc}\p{Cf}]/u.test(text) ? text : null));

/** The story's fields of the article form; `slug` as the editor typed it is made a slug again (empty: keep the article's, or make it at publication). */
export const storyFormFields = {
  standfirst: optionalText(STANDFIRST_MAX, storyMessages.standfirstTooLong),
  slug: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const slug = text ? editedSlug(text) : null;
      if (slug !== "too-long") return slug;
      ctx.addIssue({ code: "custom", message: storyMessages.slugTooLong });
      return z.NEVER;
    }),
  shareTitle: optionalText(SHARE_TITLE_MAX, storyMessages.shareTitleTooLong),
  shareDescription: optionalText(SHARE_DESCRIPTION_MAX, storyMessages.shareDescriptionTooLong),
  noindex: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  removeShareImage: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
};

/** What a card, the meta description, RSS and JSON-LD say of an article: its standfirst when set, else the start of its text. */
export function summaryText(article: { standfirst?: string | null; content: string }, length: number): string {
  if (article.standfirst) return article.standfirst;
  return article.content.replace(/\s+/g, " ").trim().slice(0, length);
}
