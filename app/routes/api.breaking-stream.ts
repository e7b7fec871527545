import { openBreakingStream } from "~/server/breaking/stream.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.breaking-stream";

export function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return openBreakingStream(site.breakingStreams, request, context.get(clientIpContext));
}
