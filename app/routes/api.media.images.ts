import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { BODY_IMAGE_LIMITS, storeBodyImage } from "~/server/news/body-images.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.media.images";

/** The editor's image upload: POST one file as `image`; 201 with its stored path for the body's figure. A refusal is answered as JSON (http/error-response). */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const room = site.newsroom;
  const url = await withSubmission(request, room.stagingDir, BODY_IMAGE_LIMITS, (form) =>
    storeBodyImage(room, actor, form),
  );
  return Response.json({ url }, { status: 201, headers: NO_STORE });
}
