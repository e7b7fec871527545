import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { articleNotFound, editFromRequest, editableArticle } from "~/server/news/publishing.server";
import { trashArticle } from "~/server/news/trash.server";
import { requireEditor, requireNewsroomMember } from "~/server/accounts/guards.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news.item";

/** Newsroom API: GET an article its reader may edit, with the form's fields. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const result = await editableArticle(site.db, params.id, actor);
  if (!result.ok) return errorResponse(result.error);
  const { article, reviewNote } = result;
  const { id, title, content, body, category, status, publishAt, byline, images, video, imageUrl, createdAt, updatedAt, publishedAt } = article;
  return Response.json(
    { id, title, content, body, category, status, publishAt, byline, images, video, imageUrl, reviewNote, createdAt, updatedAt, publishedAt },
    { headers: NO_STORE },
  );
}

/** PUT a multipart article form to edit (authors: their own drafts), DELETE to move to the trash (editors). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method === "DELETE") {
    await requireEditor(site.auth, request);
    const room = site.newsroom;
    if (!(await trashArticle(room.db, params.id, room.clock.now()))) return errorResponse(articleNotFound());
    return Response.json({ id: params.id, deleted: true }, { headers: NO_STORE });
  }
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "PUT" && request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const result = await editFromRequest(site.newsroom, request, params.id, actor, "api");
  if (!result.ok) return errorResponse(result.error);
  return Response.json({ id: result.id }, { headers: NO_STORE });
}
