import { articleFields, articleSchema, type ArticleFormInput } from "~/lib/article-schema";
import { articleFieldErrors } from "~/lib/field-errors";
import { messages } from "~/lib/messages";
import type { Submission } from "~/server/http/multipart-form.server";
import { AppError } from "~/server/platform/app-error.server";
import { refusalOfFields } from "./base-version.server";

/**
 * Who sent the form. The dashboard's page keeps its time field in the form, hidden, while a status other
 * than "scheduled" is chosen: posted without JavaScript, that time goes with the choice. A client of the
 * API (the page's own script among them) sends a time only with "scheduled".
 */
export type FormSender = "page" | "api";

/** Every text field an article form may carry; its files (images, video) are the submission's. */
const FORM_FIELDS = new Set(Object.keys(articleFields.shape));

/**
 * The article form's fields, checked. A field the form does not have is refused by its name (a client's
 * typo must not be dropped without a word), and so is every field that fails its check.
 */
export function checkedArticleForm(submission: Submission, sender: FormSender): ArticleFormInput {
  const unknown = Object.keys(submission.fields).find((field) => !FORM_FIELDS.has(field));
  if (unknown !== undefined) throw new AppError("validation", { message: messages.fieldUnknown, fields: { [unknown]: messages.fieldUnknown } });
  const one = (name: string) => submission.fields[name]?.[0];
  const timeGoesWithChoice = sender === "page" && one("status") !== "scheduled";
  const parsed = articleSchema.safeParse({
    title: one("title"),
    content: one("content"),
    body: one("body"),
    category: one("category"),
    status: one("status"),
    byline: one("byline"),
    videoUrl: one("videoUrl"),
    imageUrl: one("imageUrl"),
    removeImages: submission.fields.removeImages ?? [],
    imageOrder: submission.fields.imageOrder,
    imageAlt: submission.fields.imageAlt,
    imageCaption: submission.fields.imageCaption,
    imageCredit: submission.fields.imageCredit,
    removeVideo: one("removeVideo"),
    submissionId: one("submissionId") || undefined,
    baseVersion: one("baseVersion") || undefined,
    standfirst: one("standfirst"),
    slug: one("slug"),
    shareTitle: one("shareTitle"),
    shareDescription: one("shareDescription"),
    noindex: one("noindex"),
    removeShareImage: one("removeShareImage"),
    publishAt: timeGoesWithChoice ? undefined : one("publishAt") || undefined,
    topics: one("topics"),
    sendAlert: one("sendAlert"),
    confirmAlert: one("confirmAlert"),
  });
  if (!parsed.success) throw refusalOfFields(articleFieldErrors(parsed.error.issues));
  return parsed.data;
}
