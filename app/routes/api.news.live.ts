import { openCoverageStream } from "~/server/coverage/coverage-stream.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news.live";

/** GET: a published story's live coverage as Server-Sent Events (ids are outbox ids: Last-Event-ID resumes on any instance). */
export function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return openCoverageStream(site.coverage, params.id, request, context.get(clientIpContext));
}
