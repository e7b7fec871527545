import { TOPICS_FIELD_MAX } from "~/lib/topics";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { suggestTopics } from "~/server/news/topics.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.topics";

/** The article form's autocomplete: GET ?q= → `{ topics: [{ id, name, slug }] }`, existing topics whose normalised name starts with it. Newsroom members only. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireNewsroomMember(site.auth, request);
  const typed = (url.searchParams.get("q") ?? "").slice(0, TOPICS_FIELD_MAX);
  return Response.json({ topics: await suggestTopics(site.db, typed) }, { headers: NO_STORE });
}
