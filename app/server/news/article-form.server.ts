import { ARTICLE_TEXT_FIELDS, articleFormValues } from "~/lib/article-form-fields";
import { articleFieldOf } from "~/lib/field-errors";
import type { ReadFormOptions } from "~/server/http/read-form.server";
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
 * How the article form is read into articleSchema (http/read-form). A field the form does not have is
 * refused by its name (a client's typo must not be dropped without a word), and so is every field that fails its check.
 */
export function articleFormReading(sender: FormSender): ReadFormOptions {
  return {
    known: FORM_FIELDS,
    values: ({ texts }) => {
      const values = articleFormValues(texts);
      return sender === "page" && values.status !== "scheduled" ? { ...values, publishAt: undefined } : values;
    },
    fieldOf: articleFieldOf,
    refusal: refusalOfFields,
  };
}
