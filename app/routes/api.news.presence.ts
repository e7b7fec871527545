import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { readForm } from "~/server/http/read-form.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import {
  announcePresence,
  announcementSchema,
  openPresenceStream,
  PRESENCE_FORM_READING,
} from "~/server/presence/presence.server";
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
  const announcement = await readForm(announcementSchema, request, { ...PRESENCE_FORM_READING, maxBytes: 1024 });
  await announcePresence(site.db, user, params.id, announcement);
  return new Response(null, { status: 204, headers: NO_STORE });
}
