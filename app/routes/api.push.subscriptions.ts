import { errorResponse } from "~/server/http/error-response.server";
import { readSmallJson } from "~/server/http/json-body.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { subscribe, unsubscribe } from "~/server/push/subscriptions.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.push.subscriptions";

const BODY_BYTES = 8 * 1024;

/** POST `{ subscription, categories }`: 201, the same endpoint's categories replaced; 429 past the address's limit, 503 when the site is full. DELETE `{ endpoint }`: 204. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  if (request.method === "POST") {
    const subscribing = {
      db: site.db,
      secret: site.config.authSecret,
      address: context.get(clientIpContext),
      now: site.clock.now(),
      loopback: site.config.testLoopbackPush,
    };
    await subscribe(subscribing, await readSmallJson(request, BODY_BYTES));
    return Response.json({}, { status: 201, headers: NO_STORE });
  }
  if (request.method === "DELETE") {
    await unsubscribe(site.db, await readSmallJson(request, BODY_BYTES));
    return new Response(null, { status: 204, headers: NO_STORE });
  }
  return errorResponse(new AppError("method-not-allowed"));
}
