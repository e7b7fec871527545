import { requireEditor } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { subscribersCsv } from "~/server/newsletter/newsroom.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-newsletter-csv";

/** Every newsletter subscriber as CSV, for editors and admins. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  return new Response(await subscribersCsv(site.db), {
    headers: {
      ...NO_STORE,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="newsletter-subscribers.csv"',
    },
  });
}
