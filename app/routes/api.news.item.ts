import { NO_STORE } from "~/server/http/cache-policy.server";
import { messages } from "~/lib/messages";
import { deleteWithMedia, editFromRequest } from "~/server/news/publishing.server";
import { requireAdmin } from "~/server/accounts/guards.server";
import { auth, newsroom } from "~/server/platform/site.server";
import type { Route } from "./+types/api.news.item";

/** Admin API: PUT a multipart article form to edit, DELETE to remove. */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(auth(), request);
  if (request.method === "DELETE") {
    if (!(await deleteWithMedia(newsroom(), params.id)))
      return Response.json({ errors: { form: messages.newsNotFound } }, { status: 404, headers: NO_STORE });
    return Response.json({ id: params.id, deleted: true }, { headers: NO_STORE });
  }
  if (request.method !== "PUT" && request.method !== "POST")
    return Response.json({ error: "method" }, { status: 405, headers: NO_STORE });
  const result = await editFromRequest(newsroom(), request, params.id);
  if (!result.ok) return Response.json({ errors: result.errors }, { status: result.status, headers: NO_STORE });
  return Response.json({ id: result.id }, { headers: NO_STORE });
}
