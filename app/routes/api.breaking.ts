import { listBreaking } from "~/server/live/breaking.server";
import { CACHE } from "~/server/http/cache-policy.server";
import { db } from "~/server/db/db.server";

/** The breaking list as JSON, for browsers without EventSource (polled every 30 s). */
export async function loader() {
  return Response.json({ items: await listBreaking(db()) }, { headers: { "Cache-Control": CACHE.publicPage } });
}
