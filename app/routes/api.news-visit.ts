import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { articleNotFound } from "~/server/news/ownership.server";
import { AppError } from "~/server/platform/app-error.server";
import { countArticleVisit } from "~/server/visits/visits.server";
import { visitOf } from "~/server/visits/visitor.server";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news-visit";

export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const mark = visitOf(await getCurrentUser(site.auth, request), site.config.authSecret, context.get(clientIpContext), `news:${params.id}`);
  if (!mark) return Response.json({ ok: true }, { headers: NO_STORE });
  if ((await countArticleVisit(site.db, params.id, mark)) === "missing") {
    return errorResponse(articleNotFound());
  }
  return Response.json({ ok: true }, { headers: NO_STORE });
}
