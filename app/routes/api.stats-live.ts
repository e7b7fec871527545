import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { readLive } from "~/server/stats/read-live.server";
import { statsScopeOf } from "~/server/stats/stats-scope.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.stats-live";

/** The "now" panel's figures, scoped like the page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const scope = statsScopeOf(await requireNewsroomMember(site.auth, request));
  return Response.json(await readLive(site.db, { scope, now: site.clock.now() }), { headers: NO_STORE });
}
