import { messages } from "~/lib/messages";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { sitemapXml } from "~/server/feeds/feeds.server";
import { feedNotFound, feedResponse, XML_CONTENT_TYPE } from "~/server/feeds/responses.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/sitemap";

/** ?page= absent, or a page number; anything else is no page at all. */
function requestedPage(url: URL): number | null | "invalid" {
  const raw = url.searchParams.get("page");
  if (raw === null) return null;
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : "invalid";
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const page = requestedPage(url);
  const xml =
    page === "invalid"
      ? null
      : await sitemapXml(site.db, {
          baseUrl: site.config.baseUrl,
          site: await cachedSiteSettings(site.db, site.readCache),
          page,
        });
  return xml === null ? feedNotFound(messages.pageNotFound) : feedResponse(xml, XML_CONTENT_TYPE);
}
