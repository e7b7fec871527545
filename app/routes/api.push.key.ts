import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteVapidKeys } from "~/server/push/vapid-keys.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.push.key";

/** GET: the site's VAPID public key (base64url), the browser's applicationServerKey. */
export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const { publicKey } = await siteVapidKeys(site.db, site.clock.now());
  return Response.json({ publicKey }, { headers: NO_STORE });
}
