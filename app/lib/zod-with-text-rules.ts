import * as zod from "zod";
import { messages } from "./messages";

/*
 * Zod as it is, except that z.string() refuses U+0000: every text a client sends (forms, the API, the
 * rich-text document's texts, ids, account fields, settings) is read through a string schema, and
 * PostgreSQL can store no NUL. Import z from ./zod, which gives this module as the namespace.
 */

export * from "zod";

const withoutNul = (text: string) => !text.includes("\u0000");

export function string(params?: string | zod.core.$ZodStringParams): zod.ZodString {
  return zod.string(params).refine(withoutNul, { error: messages.textHasNul, abort: true });
}

/** Whether a failed parse met a NUL somewhere inside the value (a document's text, in any branch of a union), so its message is the one to give. */
export function refusedNul(error: { issues: readonly zod.core.$ZodIssue[] }): boolean {
  return error.issues.some(
    (issue) =>
      issue.message === messages.textHasNul ||
      (issue.code === "invalid_union" && issue.errors.some((issues) => refusedNul({ issues }))),
  );
}
