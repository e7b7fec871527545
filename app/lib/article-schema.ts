import { z } from "./zod";
import { BYLINE_MAX } from "./bylines";
import { IMAGE_DETAIL_MAX, type ImageDetailsMap } from "./image-details";
import { CATEGORIES } from "./categories";
import { messages } from "./messages";
import { conflictMessages, imageDetailMessages, newsroomMessages } from "./newsroom-messages";
import { CHOSEN_STATUSES } from "./news";
import { parsePublishAt } from "./publish-time";
import { topicsField } from "./topic-schema";
import { storyFormFields } from "./story-fields";
import type { ArticleTextField } from "./article-form-fields";
import {
  documentFromPlainText,
  documentPlainText,
  isEmptyDocument,
  readRichDocument,
  type RichDocument,
} from "./rich-text/document";

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

const imageDetail = (message: string) =>
  z
    .string()
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(IMAGE_DETAIL_MAX, message));

/** An article's id sent in a form (opaque text: imported Firestore ids keep theirs); one that names no article is a 404 further on. */
export const articleIdField = z.string().min(1, messages.newsNotFound).max(1_500, messages.newsNotFound);

/** The trash's buttons: restore (editors) or delete for good (admins) one article. */
export const trashActionSchema = z.object({ intent: z.enum(["restore", "delete"]), id: articleIdField });

/** The form's fields one by one (every text field of article-form-fields.ts): what autosave and preview check of them. */
export const articleFields = z.object({
  title: z
    .string({ error: newsroomMessages.titleRequired })
    .trim()
    .refine(hasVisibleText, newsroomMessages.titleRequired)
    .max(TITLE_MAX, newsroomMessages.titleTooLong),
  /** Plain text, from clients written before the editor (the JSON API): it becomes a document of paragraphs. */
  content: z
    .string({ error: newsroomMessages.contentRequired })
    .transform((text) => text.replace(/\r\n?/g, "\n"))
    .pipe(
      z
        .string()
        .trim()
        .refine(hasVisibleText, newsroomMessages.contentRequired)
        .max(CONTENT_MAX, newsroomMessages.contentTooLong),
    )
    .optional(),
  /** The editor's document as JSON: only what the allow-list of lib/rich-text/document.ts names. */
  body: z
    .string()
    .transform((json, ctx) => {
      const document = readRichDocument(json);
      if (typeof document !== "string") return document;
      ctx.addIssue({ code: "custom", message: document === "nul" ? messages.textHasNul : messages.richTextInvalid });
      return z.NEVER;
    })
    .optional(),
  category: z.enum(CATEGORIES, { error: messages.categoryInvalid }),
  status: z.enum(CHOSEN_STATUSES, { error: newsroomMessages.statusInvalid }),
  byline: z
    .string()
    .transform((text) => text.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(BYLINE_MAX, newsroomMessages.bylineTooLong))
    .optional()
    .transform((text) => (text && hasVisibleText(text) ? text : null)),
  videoUrl: optionalUrl(newsroomMessages.videoUrlInvalid).default(null),
  imageUrl: optionalUrl(newsroomMessages.imageUrlInvalid).default(null),
  removeImages: z.array(z.string()).default([]),
  /** The article's images in the order readers see them (the first is the cover), and each one's details in the same order. */
  imageOrder: z
    .array(z.string().max(URL_MAX, imageDetailMessages.notOfArticle))
    .max(MAX_IMAGES, imageDetailMessages.notOfArticle)
    .optional(),
  imageAlt: z.array(imageDetail(imageDetailMessages.altTooLong)).optional(),
  imageCaption: z.array(imageDetail(imageDetailMessages.captionTooLong)).optional(),
  imageCredit: z.array(imageDetail(imageDetailMessages.creditTooLong)).optional(),
  removeVideo: z.literal("on").optional(),
  submissionId: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,64}$/)
    .optional(),
  /** The version of the article the form was opened on or last saved as (news.version): an edit of a newer one is refused. */
  baseVersion: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, conflictMessages.baseVersionRequired)
    .transform(Number)
    .optional(),
  /** ISO 8601, or the form's wall time in Beirut, as UTC: only a scheduled article has one (sent with another status, it is refused). */
  publishAt: z.string().trim().max(40, newsroomMessages.publishAtInvalid).optional(),
  /** Topic names, comma-separated (lib/topics.ts); absent: the article keeps its topics. */
  topics: topicsField,
  /** Standfirst, slug, share title and description, noindex, the share picture's removal (story-fields.ts). */
  ...storyFormFields,
  /** An editor's "إرسال تنبيه" (Web Push, decision 037), and the confirmation asked for past the hourly limit. */
  sendAlert: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  confirmAlert: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
} satisfies Record<ArticleTextField, z.ZodType>);

/**
 * The article's text as a document and its plain text: the editor's `body`, or else plain `content`
 * converted once here, at the edge; never both. Either way the text must show something and fit CONTENT_MAX.
 */
export function withArticleText<T extends { content?: string; body?: RichDocument }>(
  fields: T,
  ctx: z.RefinementCtx,
): Omit<T, "content" | "body"> & { content: string; body: RichDocument } {
  if (fields.body !== undefined && fields.content !== undefined) {
    ctx.addIssue({ code: "custom", path: ["content"], message: newsroomMessages.contentAndBody });
    return z.NEVER;
  }
  const body = fields.body ?? (fields.content === undefined ? undefined : documentFromPlainText(fields.content));
  if (!body || isEmptyDocument(body)) {
    ctx.addIssue({ code: "custom", path: ["content"], message: newsroomMessages.contentRequired });
    return z.NEVER;
  }
  const content = documentPlainText(body);
  if (content.length > CONTENT_MAX) {
    ctx.addIssue({ code: "custom", path: ["content"], message: newsroomMessages.contentTooLong });
    return z.NEVER;
  }
  return { ...fields, content, body };
}

type ImageFields = { imageOrder?: string[]; imageAlt?: string[]; imageCaption?: string[]; imageCredit?: string[] };

/**
 * The images' order and details as one value: null when the form sent no order (the article keeps its
 * own). Which URLs the article may name is the server's check (publishing.server.ts).
 */
export function withImageDetails<T extends ImageFields>(
  fields: T,
  ctx: z.RefinementCtx,
): Omit<T, keyof ImageFields> & { imageOrder: string[] | null; imageDetails: ImageDetailsMap | null } {
  const { imageOrder, imageAlt = [], imageCaption = [], imageCredit = [], ...rest } = fields;
  if (imageOrder === undefined) {
    if (imageAlt.length + imageCaption.length + imageCredit.length > 0) {
      ctx.addIssue({ code: "custom", path: ["imageDetails"], message: imageDetailMessages.mismatch });
      return z.NEVER;
    }
    return { ...rest, imageOrder: null, imageDetails: null };
  }
  const sameLength = [imageAlt, imageCaption, imageCredit].every((list) => list.length === imageOrder.length);
  if (!sameLength || new Set(imageOrder).size !== imageOrder.length) {
    ctx.addIssue({ code: "custom", path: ["imageDetails"], message: imageDetailMessages.mismatch });
    return z.NEVER;
  }
  const imageDetails: ImageDetailsMap = Object.fromEntries(
    imageOrder.map((url, index) => [
      url,
      { alt: imageAlt[index] ?? "", caption: imageCaption[index] ?? "", credit: imageCredit[index] ?? "" },
    ]),
  );
  return { ...rest, imageOrder, imageDetails };
}

/** The publishing and edit form, checked in the browser (constraints) and on the server (the real check). */
export const articleSchema = articleFields
  .transform(withArticleText)
  .transform(withImageDetails)
  .transform((article, ctx) => {
    if (article.status !== "scheduled") {
      if (!article.publishAt) return { ...article, publishAt: null };
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: newsroomMessages.publishAtNotScheduled });
      return z.NEVER;
    }
    const publishAt = article.publishAt ? parsePublishAt(article.publishAt) : null;
    if (!publishAt) {
      ctx.addIssue({
        code: "custom",
        path: ["publishAt"],
        message: article.publishAt ? newsroomMessages.publishAtInvalid : newsroomMessages.publishAtRequired,
      });
      return z.NEVER;
    }
    if (Date.parse(publishAt) <= Date.now()) {
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: newsroomMessages.publishAtPast });
      return z.NEVER;
    }
    return { ...article, publishAt };
  });

export type ArticleFormInput = z.infer<typeof articleSchema>;
export type ArticleField =
  | "title"
  | "content"
  | "body"
  | "category"
  | "status"
  | "publishAt"
  | "byline"
  | "videoUrl"
  | "imageUrl"
  | "images"
  | "imageDetails"
  | "video"
  | "topics"
  | "form"
  | "standfirst"
  | "slug"
  | "shareTitle"
  | "shareDescription"
  | "shareImage"
  | "noindex"
  | "sendAlert";
export type ArticleFieldErrors = Partial<Record<ArticleField, string>>;
