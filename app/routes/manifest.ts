import { CACHE } from "~/server/http/cache-policy.server";
import { db } from "~/server/db/db.server";
import { readCache } from "~/server/platform/site-read-cache.server";
import { cachedSiteFrame } from "~/server/settings/site-settings.server";
import { webManifest } from "~/server/settings/web-manifest.server";

/** /manifest.webmanifest: the site's name and icons from its settings. */
export async function loader() {
  const manifest = webManifest(await cachedSiteFrame(db(), readCache));
  return new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": CACHE.feed } });
}
