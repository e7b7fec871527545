import { z } from "~/lib/zod";
import { AppError } from "~/server/platform/app-error.server";

const visitBodySchema = z.object({
  reader: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  referrer: z.string().max(2048).default(""),
  utm: z.string().max(64).default(""),
});
export type VisitBody = z.infer<typeof visitBodySchema>;

/** The island's JSON (or the same fields as a form): the browser's own id, `document.referrer` and `utm_source`; a 400 for anything else. */
export function parseVisitBody(text: string, contentType: string): VisitBody {
  let fields: unknown;
  try {
    fields = contentType.includes("json") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
  } catch {
    throw new AppError("bad-request");
  }
  const parsed = visitBodySchema.safeParse(fields);
  if (!parsed.success) throw new AppError("bad-request");
  return parsed.data;
}

export async function readVisitBody(request: Request): Promise<VisitBody> {
  return parseVisitBody(await request.text(), request.headers.get("content-type") ?? "");
}
