import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { errorResponse } from "~/server/http/error-response.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { POSTER_LIMITS, setVideoPoster } from "~/server/news/video-posters.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.media.posters";

/** A video's poster: POST `articleId` and one picture as `poster`; 201 with its stored URL. A refusal is answered as JSON (http/error-response). */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const room = site.newsroom;
  const url = await withSubmission(request, room.stagingDir, POSTER_LIMITS, (form) =>
    setVideoPoster(room, actor, form),
  );
  return Response.json({ url }, { status: 201, headers: NO_STORE });
}
