import { z } from "./zod";
import { CATEGORIES } from "./categories";
import { messages } from "./messages";
import { CHOSEN_STATUSES } from "./news";
import { parsePublishTime } from "./publish-time";

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

/** An ISO 8601 moment (or a datetime-local value, read in Beirut time), as a UTC ISO string; empty is null. */
const publishTime = z
  .string({ error: messages.publishAtInvalid })
  .trim()
  .max(40, messages.publishAtInvalid)
  .default("")
  .transform((value, ctx) => {
    if (value === "") return null;
    const moment = parsePublishTime(value);
    if (moment === null) ctx.addIssue({ code: "custom", message: messages.publishAtInvalid });
    return moment;
  });

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
  publishAt: publishTime,
  videoUrl: optionalUrl(messages.videoUrlInvalid).default(""),
  imageUrl: optionalUrl(messages.imageUrlInvalid).default(""),
  removeImages: z.array(z.string()).default([]),
  removeVideo: z.literal("on").optional(),
  submissionId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/).optional(),
}).superRefine((article, ctx) => {
  // A scheduled article needs a time still to come; other statuses keep a time only as information.
  if (article.status !== "scheduled") return;
  if (article.publishAt === null) ctx.addIssue({ code: "custom", path: ["publishAt"], message: messages.publishAtRequired });
  else if (Date.parse(article.publishAt) <= Date.now()) ctx.addIssue({ code: "custom", path: ["publishAt"], message: messages.publishAtPast });
});

export type ArticleFormInput = z.infer<typeof articleSchema>;
export type ArticleField = "title" | "content" | "category" | "status" | "publishAt" | "videoUrl" | "imageUrl" | "images" | "video" | "form";
export type ArticleFieldErrors = Partial<Record<ArticleField, string>>;
