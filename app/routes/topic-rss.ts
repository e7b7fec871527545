import { redirect } from "react-router";
import { topicMessages } from "~/lib/newsroom-messages";
import { topicFeedPath } from "~/lib/topics";
import { wirePath } from "~/lib/news";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { rssXml } from "~/server/feeds/feeds.server";
import { feedNotFound, feedResponse, RSS_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { findTopicBySlug } from "~/server/news/topics.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/topic-rss";

/** /topic/{slug}/rss.xml: the topic's newest published articles; an old address answers 301 with the topic's own feed. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const found = await findTopicBySlug(site.db, params.slug);
  if (!found) return feedNotFound(topicMessages.topicNotFound);
  if (found.kind === "moved") return redirect(wirePath(topicFeedPath(found.slug)), 301);
  const settings = await cachedSiteSettings(site.db, site.readCache);
  return feedResponse(
    await rssXml(site.db, { baseUrl: site.config.baseUrl, site: settings, topic: found.topic }),
    RSS_CONTENT_TYPE,
  );
}
