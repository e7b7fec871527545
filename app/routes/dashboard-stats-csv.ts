import { statsMessages as m } from "~/lib/newsroom-messages";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { AppError } from "~/server/platform/app-error.server";
import { pageError } from "~/server/http/page-error.server";
import { readStats } from "~/server/stats/read-stats.server";
import { CSV_TABLES, statsCsv, type CsvTable } from "~/server/stats/stats-csv.server";
import { statsRangeOf } from "~/lib/stats-ranges";
import { statsScopeOf } from "~/server/stats/stats-scope.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-stats-csv";

/** Any table of the stats page as CSV, scoped like the page. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const scope = statsScopeOf(await requireNewsroomMember(site.auth, request));
  const table = url.searchParams.get("table") ?? "";
  if (!(CSV_TABLES as readonly string[]).includes(table)) throw pageError(new AppError("bad-request"));
  const range = statsRangeOf(url.searchParams.get("range"));
  const report = await readStats(site.db, { range, scope, now: site.clock.now() });
  const csv = statsCsv(report, table as CsvTable, {
    hour: m.csvHour,
    day: m.csvDay,
    key: m.key,
    label: m.label,
    views: m.views,
    readers: m.readers,
  });
  return new Response(csv, {
    headers: {
      ...NO_STORE,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="stats-${table}-${range}.csv"`,
    },
  });
}
