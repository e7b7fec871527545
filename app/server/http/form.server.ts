import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { pageError } from "./page-error.server";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/** Sign-in, sign-up and delete forms are a few short fields. */
const SMALL_FORM_BYTES = 64 * 1024;

const malformed = (code: "bad-request" | "too-large") => pageError(new AppError(code, { message: messages.formMalformed }));

/**
 * The body of a small HTML form. Anything else (JSON, text, garbage, a form too large to be one of
 * ours) is refused with a 400 or 413 and the Arabic message, never a 500.
 */
export async function readSmallForm(request: Request, maxBytes = SMALL_FORM_BYTES): Promise<FormData> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw malformed("too-large");
  if (!FORM_TYPES.test(request.headers.get("content-type") ?? "")) throw malformed("bad-request");
  try {
    return await request.formData();
  } catch {
    throw malformed("bad-request");
  }
}

/** A text field of a form read with readSmallForm; absent, empty or a file is undefined. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
}
