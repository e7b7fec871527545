import { libraryFilterFromUrl, libraryPageFromUrl } from "~/lib/media-library";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { searchLibrary } from "~/server/news/media-library.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.media.library";

/** The form's library picker: GET with the library page's search (?q=&uploader=&from=&to=&page=) → `{ images, hasMore }`. Newsroom members only. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireNewsroomMember(site.auth, request);
  return Response.json(await searchLibrary(site.db, libraryFilterFromUrl(url), libraryPageFromUrl(url)), { headers: NO_STORE });
}
