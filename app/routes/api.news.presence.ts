import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { announcePresence, openPresenceStream } from "~/server/presence/presence.server";
import { AppError } from "~/server/platform/app-error.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news.presence";

/** GET: Server-Sent Events naming the others who have this story's edit form open, at each change. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  return openPresenceStream(site.editing, user, params.id, request, context.get(clientIpContext));
}

/** POST `tab` and `state` (open, leave): the form announces itself; a heartbeat is another `open`. 204. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const form = await readSmallForm(request, 1024);
  await announcePresence(site.db, user, params.id, { tab: formText(form, "tab"), state: formText(form, "state") });
  return new Response(null, { status: 204, headers: NO_STORE });
}
