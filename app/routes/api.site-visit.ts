import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import { acceptView } from "~/server/visits/accept-view.server";
import { readVisitBody } from "~/server/visits/visit-body.server";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.site-visit";

/** A signed-in browser's first visit to the site (decision 039); a reader's is answered before React Router (site/reader-visits). */
export async function action({ request, url, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const body = await readVisitBody(request);
  const visitor = { user: await getCurrentUser(site.auth, request), address: context.get(clientIpContext), userAgent: request.headers.get("user-agent") ?? "", siteHost: url.hostname, at: site.clock.now() };
  await acceptView(site.db, site.views, visitor, null, body);
  return Response.json({ ok: true }, { headers: NO_STORE });
}
