import { config } from "~/server/platform/config.server";
import { buildRobotsTxt } from "~/server/feeds/robots.server";
import { feedResponse, TEXT_CONTENT_TYPE } from "~/server/feeds/responses.server";

export function loader() {
  return feedResponse(buildRobotsTxt(config().baseUrl), TEXT_CONTENT_TYPE);
}
