import { config } from "~/server/platform/config.server";
import { db } from "~/server/db/db.server";
import { newsSitemapXml } from "~/server/feeds/feeds.server";
import { feedResponse, XML_CONTENT_TYPE } from "~/server/feeds/responses.server";

export async function loader() {
  return feedResponse(await newsSitemapXml(db(), { baseUrl: config().baseUrl }), XML_CONTENT_TYPE);
}
