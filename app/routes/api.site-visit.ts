import { NO_STORE } from "~/server/http-cache.server";
import { db } from "~/server/db/db.server";
import { countSiteVisit } from "~/server/site-stats.server";
import type { Route } from "./+types/api.site-visit";

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method" }, { status: 405, headers: NO_STORE });
  await countSiteVisit(db());
  return Response.json({ ok: true }, { headers: NO_STORE });
}
