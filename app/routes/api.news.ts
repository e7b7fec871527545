import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { articleFormReading } from "~/server/news/article-form.server";
import { publishArticle } from "~/server/news/publishing.server";
import { ARTICLE_FORM_LIMITS } from "~/server/news/submission-limits.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news";

/**
 * Newsroom API: POST a multipart article form (the form's fields; publishAt only with status "scheduled";
 * a field the form does not have is a 400 naming it); 201 with the new id and short id. A refusal is
 * thrown and answered as JSON (http/error-response).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const room = site.newsroom;
  const created = await withSubmission(request, room.stagingDir, ARTICLE_FORM_LIMITS, async (form) =>
    publishArticle(room, actor, {
      input: await readForm(articleSchema, form, articleFormReading("api")),
      files: form.files,
    }),
  );
  return Response.json(created, { status: 201, headers: NO_STORE });
}
