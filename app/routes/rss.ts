import { CATEGORIES } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { config } from "~/server/platform/config.server";
import { db } from "~/server/db/db.server";
import { readCache } from "~/server/platform/site-read-cache.server";
import { cachedSiteSettings } from "~/server/settings/site-settings.server";
import { rssPath, rssXml } from "~/server/feeds/feeds.server";
import { feedNotFound, feedResponse, RSS_CONTENT_TYPE } from "~/server/feeds/responses.server";
import type { Route } from "./+types/rss";

/** /rss.xml for the whole site, /{category path}/rss.xml for one category. */
export async function loader({ url }: Route.LoaderArgs) {
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname === rssPath()) return feedResponse(await rssXml(db(), { baseUrl: config().baseUrl, site: await cachedSiteSettings(db(), readCache) }), RSS_CONTENT_TYPE);
  const category = CATEGORIES.find((c) => rssPath(c) === pathname);
  if (!category) return feedNotFound(messages.pageNotFound);
  return feedResponse(await rssXml(db(), { baseUrl: config().baseUrl, site: await cachedSiteSettings(db(), readCache), category }), RSS_CONTENT_TYPE);
}
