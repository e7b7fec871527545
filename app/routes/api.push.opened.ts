import { errorResponse } from "~/server/http/error-response.server";
import { readSmallJson } from "~/server/http/json-body.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { countAlertOpened } from "~/server/news/push-alerts.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.push.opened";

/** POST `{ alertId, open }`: a notification was opened, `open` the token its payload carried; 204, counted once per token. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  await countAlertOpened(site.db, site.config.authSecret, await readSmallJson(request, 1024));
  return new Response(null, { status: 204, headers: NO_STORE });
}
