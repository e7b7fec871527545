import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { readSmallForm } from "~/server/http/form.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import {
  AUTOSAVE_FORM_READING,
  AUTOSAVE_ID_READING,
  autosaveDraft,
  autosaveIdSchema,
} from "~/server/news/autosave.server";
import { AppError, isEditConflict } from "~/server/platform/app-error.server";
import { conflictDetails } from "~/server/news/api-story.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news.autosave";

/** The form's text, at most CONTENT_MAX characters of Arabic in UTF-8, and a few short fields. */
const AUTOSAVE_FORM_BYTES = 512 * 1024;

/** The form's autosave: POST its fields (lib/article-form-fields.ts; `id` once it has a draft); 200 with the draft's id and when it was saved; an edit-conflict carries the draft as saved now (`current`). A refusal is answered as JSON (http/error-response). */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const form = await readSmallForm(request, AUTOSAVE_FORM_BYTES);
  const input = await readForm(articleSchema, form, AUTOSAVE_FORM_READING);
  const { id } = await readForm(autosaveIdSchema, form, AUTOSAVE_ID_READING);
  try {
    return Response.json(await autosaveDraft(site.db, user, { id, input }, site.clock.now()), { headers: NO_STORE });
  } catch (error) {
    if (!isEditConflict(error) || !id) throw error;
    return errorResponse(error, await conflictDetails(site.db, id, user));
  }
}
