import { openBreakingStream } from "~/server/live/breaking-stream.server";
import { breakingStreamSource } from "~/server/platform/site.server";
import { clientIpContext } from "~/load-context.server";
import type { Route } from "./+types/api.breaking-stream";

export function loader({ request, context }: Route.LoaderArgs) {
  return openBreakingStream(breakingStreamSource(), request, context.get(clientIpContext));
}
