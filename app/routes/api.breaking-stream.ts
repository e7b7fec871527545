import { openBreakingStream } from "~/server/breaking/stream.server";
import type { Route } from "./+types/api.breaking-stream";

export function loader({ request, context }: Route.LoaderArgs) {
  const { site } = context;
  return openBreakingStream(site.breakingStreams, request, context.clientIp);
}
