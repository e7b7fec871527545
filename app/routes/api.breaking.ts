import { listBreaking } from "~/server/news/reader-lists.server";
import { CACHE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.breaking";

/** The breaking list as JSON, for browsers without EventSource (polled every 30 s). */
export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return Response.json({ items: await listBreaking(site.db) }, { headers: { "Cache-Control": CACHE.publicPage } });
}
