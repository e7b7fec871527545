import { messages } from "~/lib/messages";
import { coverageRssXml } from "~/server/coverage/coverage-rss.server";
import { feedNotFound, feedResponse, RSS_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/news-live-rss";

/** /news/{id}/live.xml: the RSS of a published story's live updates. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const xml = await coverageRssXml(site.db, site.config.baseUrl, params.id);
  return xml === null ? feedNotFound(messages.pageNotFound) : feedResponse(xml, RSS_CONTENT_TYPE);
}
