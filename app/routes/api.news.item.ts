import { NO_STORE } from "~/server/http/cache-policy.server";
import { errorResponse } from "~/server/http/error-response.server";
import { articleNotFound, editFromRequest } from "~/server/news/publishing.server";
import { trashArticle } from "~/server/news/trash.server";
import { requireAdmin } from "~/server/accounts/guards.server";
import { auth, newsroom } from "~/server/platform/site.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Route } from "./+types/api.news.item";

/** Admin API: PUT a multipart article form to edit, DELETE to move to the trash. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdmin(auth(), request);
  if (request.method === "DELETE") {
    if (!(await trashArticle(newsroom().db, params.id))) return errorResponse(articleNotFound());
    return Response.json({ id: params.id, deleted: true }, { headers: NO_STORE });
  }
  if (request.method !== "PUT" && request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const result = await editFromRequest(newsroom(), request, params.id, user.id);
  if (!result.ok) return errorResponse(result.error);
  return Response.json({ id: result.id }, { headers: NO_STORE });
}
