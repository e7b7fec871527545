import { libraryFilterFromUrl, libraryPageFromUrl } from "~/lib/media-library";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { errorResponse } from "~/server/http/error-response.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { LIBRARY_UPLOAD_LIMITS, searchLibrary, uploadLibraryImages } from "~/server/news/media-library.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.media.library";

/** The form's library picker: GET with the library page's search (?q=&uploader=&from=&to=&page=) → `{ images, hasMore }`. Newsroom members only. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  return Response.json(await searchLibrary(site.db, actor, libraryFilterFromUrl(url), libraryPageFromUrl(url)), {
    headers: NO_STORE,
  });
}

/** Pictures into the library: POST up to 10 files as `images`; 201 with their stored URLs. A refusal is answered as JSON (http/error-response). */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const room = site.newsroom;
  const urls = await withSubmission(request, room.stagingDir, LIBRARY_UPLOAD_LIMITS, (form) =>
    uploadLibraryImages(room, actor, form),
  );
  return Response.json({ urls }, { status: 201, headers: NO_STORE });
}
