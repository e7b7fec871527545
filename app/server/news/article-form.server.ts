import { articleSchema, type ArticleFormInput } from "~/lib/article-schema";
import { ARTICLE_TEXT_FIELDS, articleFormValues } from "~/lib/article-form-fields";
import { articleFieldErrors } from "~/lib/field-errors";
import { newsroomMessages } from "~/lib/newsroom-messages";
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
const FORM_FIELDS: ReadonlySet<string> = new Set(ARTICLE_TEXT_FIELDS);

/**
 * The article form's fields, checked. A field the form does not have is refused by its name (a client's
 * typo must not be dropped without a word), and so is every field that fails its check.
 */
export function checkedArticleForm(submission: Submission, sender: FormSender): ArticleFormInput {
  const unknown = Object.keys(submission.fields).find((field) => !FORM_FIELDS.has(field));
  if (unknown !== undefined)
    throw new AppError("validation", {
      message: newsroomMessages.fieldUnknown,
      fields: { [unknown]: newsroomMessages.fieldUnknown },
    });
  const values = articleFormValues((name) => submission.fields[name]);
  const timeGoesWithChoice = sender === "page" && values.status !== "scheduled";
  const parsed = articleSchema.safeParse(timeGoesWithChoice ? { ...values, publishAt: undefined } : values);
  if (!parsed.success) throw refusalOfFields(articleFieldErrors(parsed.error.issues));
  return parsed.data;
}
