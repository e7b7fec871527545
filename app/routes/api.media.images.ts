import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { storeBodyImage } from "~/server/news/body-images.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.media.images";

/** The editor's image upload: POST one file as `image`; 201 with its stored path for the body's figure. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  try {
    const url = await storeBodyImage(site.newsroom, request, actor);
    return Response.json({ url }, { status: 201, headers: NO_STORE });
  } catch (error) {
    if (AppError.is(error)) return errorResponse(error);
    throw error;
  }
}
