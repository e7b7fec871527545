import { articleFields } from "~/lib/article-schema";
import type { FieldMessages } from "~/lib/error-body";
import { conflictMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";

/** The error body's `reason` when a save of an existing story names no base version, or a malformed one. */
export const BASE_VERSION_REQUIRED = "base-version-required";

/**
 * A save of an existing story that does not say which version it was based on (decision 034): the
 * person is told the form is out of date, an API client is told the field (`fields.baseVersion`, `reason`).
 */
export const baseVersionRequired = () =>
  new AppError("validation", {
    message: conflictMessages.baseVersionRequired,
    reason: BASE_VERSION_REQUIRED,
    fields: { form: conflictMessages.baseVersionRequired, baseVersion: conflictMessages.baseVersionField },
  });

/** The base version a save of an existing story must name, as its form's check gave it. */
export function requireBaseVersion(base: number | undefined): number {
  if (base === undefined) throw baseVersionRequired();
  return base;
}

/** A small form's `baseVersion` field, checked as the article form checks it. */
export function baseVersionOf(value: FormDataEntryValue | null): number {
  const parsed = articleFields.shape.baseVersion.safeParse(typeof value === "string" ? value : undefined);
  return requireBaseVersion(parsed.success ? parsed.data : undefined);
}

/**
 * A form's refusal by field. A base version that is no version (the schema's message) is the whole
 * answer: the form is out of date. Any other message about it (a NUL) stays that field's.
 */
export function refusalOfFields(fields: FieldMessages): AppError {
  return fields.baseVersion === conflictMessages.baseVersionRequired
    ? baseVersionRequired()
    : new AppError("validation", { fields });
}
