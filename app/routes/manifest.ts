import { CACHE } from "~/server/platform/cache-control.server";
import { cachedSiteFrame } from "~/server/site-settings/site-settings.server";
import { webManifest } from "~/server/site-settings/web-manifest.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/manifest";

/** /manifest.webmanifest: the site's name and icons from its settings. */
export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const manifest = webManifest(await cachedSiteFrame(site.db, site.readCache));
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": CACHE.feed },
  });
}
