import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { bodyWithin, DEFAULT_BODY_BYTES } from "./body-limit.server";
import { pageError } from "./page-error.server";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

const malformed = (code: "bad-request" | "too-large") =>
  pageError(new AppError(code, { message: messages.formMalformed }));

/**
 * The body of a small HTML form (sign-in, sign-up, delete: a few short fields, unless `maxBytes` says more). Anything else (JSON, text, garbage, a form too large to be one of
 * ours) is refused with a 400 or 413 and the Arabic message, never a 500.
 */
export async function readSmallForm(request: Request, maxBytes = DEFAULT_BODY_BYTES): Promise<FormData> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw malformed("too-large");
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) throw malformed("bad-request");
  try {
    return await new Response(bodyWithin(request, maxBytes), { headers: { "content-type": type } }).formData();
  } catch (error) {
    throw malformed(AppError.is(error) && error.code === "too-large" ? "too-large" : "bad-request");
  }
}

/** A text field of a form read with readSmallForm; absent, empty or a file is undefined. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
}
