import { db } from "~/server/db/db.server";
import { countSiteVisit } from "~/server/site-stats.server";
import type { Route } from "./+types/api.site-visit";

const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method" }, { status: 405, headers: NO_STORE });
  await countSiteVisit(db());
  return Response.json({ ok: true }, { headers: NO_STORE });
}
