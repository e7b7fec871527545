import { pushMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";
import { bodyWithin } from "./body-limit.server";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** A small JSON body (an API's few fields): anything else, too large or unreadable, is a 400 or 413 with the Arabic message. */
export async function readSmallJson(request: Request, maxBytes: number): Promise<unknown> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw new AppError("too-large");
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? ""))
    throw new AppError("bad-request", { message: pushMessages.bodyInvalid });
  let text: string;
  try {
    text = await new Response(bodyWithin(request, maxBytes)).text();
  } catch (error) {
    if (AppError.is(error)) throw error;
    throw new AppError("bad-request", { message: pushMessages.bodyInvalid });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad-request", { message: pushMessages.bodyInvalid });
  }
}
