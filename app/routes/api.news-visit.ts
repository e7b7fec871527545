import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { articleNotFound } from "~/server/news/ownership.server";
import { AppError } from "~/server/platform/app-error.server";
import { isPublished } from "~/server/visits/visits.server";
import { readVisitBody } from "~/server/visits/visit-body.server";
import { viewInputOf } from "~/server/visits/visitor.server";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news-visit";

/** One browser's first view of a published article, buffered (decision 039); the newsroom's and crawlers' are answered and dropped. */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const body = await readVisitBody(request);
  if (!(await isPublished(site.db, params.id))) return errorResponse(articleNotFound());
  const view = viewInputOf({
    user: await getCurrentUser(site.auth, request),
    address: context.get(clientIpContext),
    userAgent: request.headers.get("user-agent") ?? "",
    siteHost: url.hostname,
    at: site.clock.now(),
  }, params.id, body);
  if (view) site.views.add(view);
  return Response.json({ ok: true }, { headers: NO_STORE });
}
