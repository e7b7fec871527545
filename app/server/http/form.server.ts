import { data } from "react-router";
import { messages } from "~/lib/messages";

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/** Sign-in, sign-up and delete forms are a few short fields. */
const SMALL_FORM_BYTES = 64 * 1024;

/**
 * The body of a small HTML form. Anything else (JSON, text, garbage, a form too large to be one of
 * ours) is refused with a 400 or 413 and the Arabic message, never a 500.
 */
export async function readSmallForm(request: Request): Promise<FormData> {
  if (Number(request.headers.get("content-length") ?? 0) > SMALL_FORM_BYTES) throw data({ message: messages.formMalformed }, 413);
  if (!FORM_TYPES.test(request.headers.get("content-type") ?? "")) throw data({ message: messages.formMalformed }, 400);
  try {
    return await request.formData();
  } catch {
    throw data({ message: messages.formMalformed }, 400);
  }
}
