import { buildRobotsTxt } from "~/server/feeds/robots.server";
import { feedResponse, TEXT_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return feedResponse(buildRobotsTxt(site.config.baseUrl), TEXT_CONTENT_TYPE);
}
