import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { publishFromRequest } from "~/server/news/publishing.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news";

/**
 * Newsroom API: POST a multipart article form (the form's fields; publishAt only with status "scheduled";
 * a field the form does not have is a 400 naming it); 201 with the new id and short id.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const result = await publishFromRequest(site.newsroom, request, actor, "api");
  if (!result.ok) return errorResponse(result.error);
  return Response.json({ id: result.id, shortId: result.shortId }, { status: 201, headers: NO_STORE });
}
