import { NO_STORE } from "~/server/http-cache.server";
import { messages } from "~/lib/messages";
import { db } from "~/server/db/db.server";
import { countArticleVisit } from "~/server/news.server";
import type { Route } from "./+types/api.news-visit";

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method" }, { status: 405, headers: NO_STORE });
  const counted = await countArticleVisit(db(), params.id);
  if (!counted) return Response.json({ error: messages.newsNotFound }, { status: 404, headers: NO_STORE });
  return Response.json({ ok: true }, { headers: NO_STORE });
}
