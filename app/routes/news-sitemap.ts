import { config } from "~/server/platform/config.server";
import { db } from "~/server/db/db.server";
import { readCache } from "~/server/platform/site-read-cache.server";
import { cachedSiteSettings } from "~/server/settings/site-settings.server";
import { newsSitemapXml } from "~/server/feeds/feeds.server";
import { feedResponse, XML_CONTENT_TYPE } from "~/server/feeds/responses.server";

export async function loader() {
  return feedResponse(await newsSitemapXml(db(), { baseUrl: config().baseUrl, site: await cachedSiteSettings(db(), readCache) }), XML_CONTENT_TYPE);
}
