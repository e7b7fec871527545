import { Link } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { LiveReaders } from "~/components/live-readers";
import { BarList, TimeChart, type BarRow } from "~/components/stats-charts";
import { statsMessages as m } from "~/lib/newsroom-messages";
import { articleIdPath } from "~/lib/news";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { statsRowLabel, type StatsRowTable } from "~/lib/stats-labels";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { readLive } from "~/server/stats/read-live.server";
import { readStats, type Row } from "~/server/stats/read-stats.server";
import { STATS_RANGES, statsRangeOf, type StatsRange } from "~/lib/stats-ranges";
import { statsScopeOf } from "~/server/stats/stats-scope.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-stats";

/** The newsroom: what was read, from where, on what; an author sees only their own stories. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const scope = statsScopeOf(await requireNewsroomMember(site.auth, request));
  const range = statsRangeOf(url.searchParams.get("range"));
  const now = site.clock.now();
  const [report, live] = await Promise.all([
    readStats(site.db, { range, scope, now }),
    readLive(site.db, { scope, now }),
  ]);
  return { report, live, ownOnly: scope.authorId !== null };
}

export const headers = () => NO_STORE;
export const handle = HYDRATE_DOCUMENT;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/stats",
    title: `${m.title} | ${siteOf(matches).name}`,
    description: m.title,
    noindex: true,
    image: null,
  });
}

const number = (n: number) => n.toLocaleString("ar-LB");
const labelled = (table: StatsRowTable, rows: Row[], href?: (row: Row) => string): BarRow[] =>
  rows.map((row) => ({ ...row, label: statsRowLabel(table, row), href: href?.(row) }));

function Panel({
  id,
  title,
  range,
  table,
  children,
}: {
  id: string;
  title: string;
  range: StatsRange;
  table: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-stone-200"
      data-testid={`stats-${table}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="font-bold">
          {title}
        </h2>
        <a
          href={`/dashboard/stats.csv?range=${range}&table=${table}`}
          className="text-sm text-brand-700 hover:underline"
          download
        >
          {m.csv}
        </a>
      </div>
      {children}
    </section>
  );
}

export default function Stats({ loaderData }: Route.ComponentProps) {
  const { report, live, ownOnly } = loaderData;
  const { range } = report;
  return (
    <div className="space-y-6">
      <DashboardHeading id="stats-title" title={m.title} />
      {ownOnly && <p className="text-sm text-stone-600">{m.ownOnly}</p>}
      <LiveReaders initial={live} />
      <nav aria-label={m.rangesLabel} className="flex gap-2">
        {STATS_RANGES.map((r) => (
          <Link
            key={r}
            to={`/dashboard/stats?range=${r}`}
            aria-current={r === range ? "page" : undefined}
            className={`rounded-full px-4 py-1.5 text-sm ring-1 ring-stone-300 ${r === range ? "bg-brand-600 text-white" : "bg-white"}`}
          >
            {m.ranges[r]}
          </Link>
        ))}
      </nav>
      <Panel
        id="series-title"
        title={`${m.overTime} (${range === "today" ? m.byHour : m.byDay})`}
        range={range}
        table="series"
      >
        <dl className="flex flex-wrap gap-6">
          <div>
            <dt className="text-sm text-stone-500">{m.views}</dt>
            <dd className="text-2xl font-bold" data-testid="total-views">
              {number(report.totals.views)}
            </dd>
          </div>
          {report.totals.readers !== null && (
            <div>
              <dt className="text-sm text-stone-500">{range === "today" ? m.readers : m.dailyReaders}</dt>
              <dd className="text-2xl font-bold" data-testid="total-readers">
                {number(report.totals.readers)}
              </dd>
            </div>
          )}
        </dl>
        <TimeChart points={report.series} title={m.overTime} />
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="top-title" title={m.top} range={range} table="top">
          <BarList testId="top-stories" rows={labelled("top", report.top, (r) => articleIdPath(r.key))} />
        </Panel>
        <Panel id="sources-title" title={m.sources} range={range} table="sources">
          <BarList testId="sources" rows={labelled("sources", report.sources)} />
        </Panel>
        <Panel id="devices-title" title={m.devices} range={range} table="devices">
          <BarList testId="devices" rows={labelled("devices", report.devices)} />
        </Panel>
        <Panel id="categories-title" title={m.categories} range={range} table="categories">
          <BarList testId="categories" rows={labelled("categories", report.categories)} />
        </Panel>
        <Panel id="authors-title" title={m.authors} range={range} table="authors">
          <BarList testId="authors" rows={labelled("authors", report.authors)} />
        </Panel>
        <Panel id="topics-title" title={m.topics} range={range} table="topics">
          <BarList testId="topics" rows={labelled("topics", report.topics)} />
        </Panel>
      </div>
    </div>
  );
}
