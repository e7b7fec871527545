import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { newsSitemapXml } from "~/server/feeds/feeds.server";
import { feedResponse, XML_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/news-sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return feedResponse(
    await newsSitemapXml(site.db, {
      baseUrl: site.config.baseUrl,
      site: await cachedSiteSettings(site.db, site.readCache),
    }),
    XML_CONTENT_TYPE,
  );
}
