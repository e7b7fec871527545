import { DashboardHeading } from "~/components/dashboard-heading";
import { categoryLabel, isCategory } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { pushMessages as m } from "~/lib/newsroom-messages";
import { articleIdPath } from "~/lib/news";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { requireEditor } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { listAlerts } from "~/server/news/push-alerts.server";
import { subscriberCounts } from "~/server/push/subscriptions.server";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-alerts";

/** Editors and admins: how many subscribe (and to what), and each alert with its counts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const [subscribers, alerts, stored] = await Promise.all([
    subscriberCounts(site.db),
    listAlerts(site.db),
    cachedSiteSettings(site.db, site.readCache),
  ]);
  return { subscribers, alerts, perHour: stored.settings.alertsPerHour };
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/alerts",
    title: `${m.alertsTitle} | ${siteOf(matches).name}`,
    description: m.alertsTitle,
    noindex: true,
    image: null,
  });
}

const number = (n: number) => n.toLocaleString("ar-LB");
const COUNTS = ["sent", "delivered", "failed", "removed", "opened"] as const;

export default function Alerts({ loaderData }: Route.ComponentProps) {
  const { subscribers, alerts, perHour } = loaderData;
  return (
    <section aria-labelledby="alerts-title" className="space-y-6">
      <DashboardHeading id="alerts-title" title={m.alertsTitle} />
      <div className="rounded-lg bg-white p-4 ring-1 ring-stone-200" data-testid="subscribers">
        <h2 className="mb-3 font-bold">{m.subscribers}</h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <div>
            <dt className="text-sm text-stone-500">{m.subscribersTotal}</dt>
            <dd className="text-xl font-bold" data-testid="subscribers-total">
              {number(subscribers.total)}
            </dd>
          </div>
          {Object.entries(subscribers.byCategory).map(([category, n]) => (
            <div key={category}>
              <dt className="text-sm text-stone-500">{isCategory(category) ? categoryLabel(category) : category}</dt>
              <dd className="text-xl font-bold" data-category={category}>
                {number(n)}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-sm text-stone-600">{`${m.perHourLimit}: ${number(perHour)}`}</p>
      </div>
      {alerts.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-stone-600 ring-1 ring-stone-200">{m.noAlerts}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg bg-white ring-1 ring-stone-200" data-testid="alerts-list">
          {alerts.map((alert) => (
            <li key={alert.id} className="space-y-2 p-4" data-testid="alert-row" data-alert={alert.id}>
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <a
                  href={articleIdPath(alert.articleId)}
                  className="min-w-0 font-bold break-words text-brand-700 hover:underline"
                >
                  {alert.title ?? alert.articleId}
                </a>
                <span className="text-sm text-stone-500">
                  {`${alert.kind === "breaking" ? m.kindBreaking : m.kindManual} · ${formatDateTime(alert.createdAt)}${alert.pending ? ` · ${m.pending}` : ""}`}
                </span>
              </div>
              <dl className="grid grid-cols-5 gap-2 text-center text-sm">
                {COUNTS.map((key) => (
                  <div key={key} className="rounded bg-stone-50 px-1 py-1.5">
                    <dt className="text-stone-500">{m[key]}</dt>
                    <dd className="font-bold" data-count={key}>
                      {number(alert[key])}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
