import { z } from "./zod";
import { BYLINE_MAX } from "./bylines";
import { CATEGORIES } from "./categories";
import { messages } from "./messages";
import { CHOSEN_STATUSES } from "./news";

export const TITLE_MAX = 300;
export const CONTENT_MAX = 100_000;
export const URL_MAX = 2_000;
export const MAX_IMAGES = 10;

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const optionalUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(URL_MAX, message)
    .refine((v) => v === "" || isWebUrl(v), message)
    .transform((v) => (v === "" ? null : v));

/** Text a reader can see: not only spaces, control characters or invisible direction marks. */
const hasVisibleText = (text: string) => /[^\s\p{Cc}\p{Cf}]/u.test(text);

/** The publishing and edit form, checked in the browser (constraints) and on the server (the real check). */
export const articleSchema = z.object({
  title: z.string({ error: messages.titleRequired }).trim().refine(hasVisibleText, messages.titleRequired).max(TITLE_MAX, messages.titleTooLong),
  content: z
    .string({ error: messages.contentRequired })
    .transform((text) => text.replace(/\r\n?/g, "\n"))
    .pipe(z.string().trim()
    .refine(hasVisibleText, messages.contentRequired)
    .max(CONTENT_MAX, messages.contentTooLong)),
  category: z.enum(CATEGORIES, { error: messages.categoryInvalid }),
  status: z.enum(CHOSEN_STATUSES, { error: messages.statusInvalid }),
  byline: z
    .string()
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(BYLINE_MAX, messages.bylineTooLong))
    .optional()
    .transform((text) => (text && hasVisibleText(text) ? text : null)),
  videoUrl: optionalUrl(messages.videoUrlInvalid).default(""),
  imageUrl: optionalUrl(messages.imageUrlInvalid).default(""),
  removeImages: z.array(z.string()).default([]),
  removeVideo: z.literal("on").optional(),
  submissionId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/).optional(),
});

export type ArticleFormInput = z.infer<typeof articleSchema>;
export type ArticleField = "title" | "content" | "category" | "status" | "byline" | "videoUrl" | "imageUrl" | "images" | "video" | "form";
export type ArticleFieldErrors = Partial<Record<ArticleField, string>>;
