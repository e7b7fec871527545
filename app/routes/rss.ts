import { CATEGORIES, feedPath } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { rssXml } from "~/server/feeds/feeds.server";
import { feedNotFound, feedResponse, RSS_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/rss";

/** /rss.xml for the whole site, /{category path}/rss.xml for one category. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname === feedPath())
    return feedResponse(
      await rssXml(site.db, { baseUrl: site.config.baseUrl, site: await cachedSiteSettings(site.db, site.readCache) }),
      RSS_CONTENT_TYPE,
    );
  const category = CATEGORIES.find((c) => feedPath(c) === pathname);
  if (!category) return feedNotFound(messages.pageNotFound);
  return feedResponse(
    await rssXml(site.db, {
      baseUrl: site.config.baseUrl,
      site: await cachedSiteSettings(site.db, site.readCache),
      category,
    }),
    RSS_CONTENT_TYPE,
  );
}
