import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import { readVisitBody } from "~/server/visits/visit-body.server";
import { viewInputOf } from "~/server/visits/visitor.server";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.site-visit";

/** One browser's first visit to the site, buffered (decision 039). */
export async function action({ request, url, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const view = viewInputOf({
    user: await getCurrentUser(site.auth, request),
    address: context.get(clientIpContext),
    userAgent: request.headers.get("user-agent") ?? "",
    siteHost: url.hostname,
    at: site.clock.now(),
  }, null, await readVisitBody(request));
  if (view) site.views.add(view);
  return Response.json({ ok: true }, { headers: NO_STORE });
}
