/** The stable codes of every refusal and failure; what each means for HTTP is in app-error.server.ts. */
export const ERROR_CODES = [
  "bad-request",
  "validation",
  "unauthorized",
  "forbidden",
  "not-found",
  "method-not-allowed",
  "conflict",
  "edit-conflict",
  "too-large",
  "rate-limited",
  "internal",
  "unavailable",
  "storage-full",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Messages by field name, for a form that shows each beside its field. */
export type FieldMessages = Record<string, string>;

/** The one JSON body of every refusal: `{ "error": { "code", "message", "reason"?, "fields"? } }` (`reason`: a sign-in refusal's catalogue entry, or `base-version-required`). */
export type ErrorBody = { error: { code: ErrorCode; message: string; reason?: string; fields?: FieldMessages } };

/** The error a body describes, or null when it is not an error body (a success, a proxy's page). */
export function errorOf(body: unknown): ErrorBody["error"] | null {
  const error = (body as Partial<ErrorBody> | null)?.error;
  if (typeof error !== "object" || error === null) return null;
  return typeof error.code === "string" && typeof error.message === "string" ? error : null;
}

/** What a form shows: each field's message, or the message for the whole form (under `form`, or the field the form names). */
export function formMessagesOf(error: ErrorBody["error"], whole = "form"): FieldMessages {
  return error.fields ?? { [whole]: error.message };
}
