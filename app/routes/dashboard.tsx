import { Link } from "react-router";
import { messages } from "~/lib/messages";
import { articlePath } from "~/lib/news";
import { requireAdmin } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listMostRead } from "~/server/news.server";
import { totalSiteVisits } from "~/server/site-stats.server";
import type { Route } from "./+types/dashboard";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const database = db();
  const [totalVisits, mostRead] = await Promise.all([
    totalSiteVisits(database),
    listMostRead(database, 8, { includeDrafts: true }),
  ]);
  return { totalVisits, mostRead };
}

export function meta() {
  return [{ title: `${messages.dashboard} | ${messages.siteName}` }, { name: "robots", content: "noindex" }];
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { totalVisits, mostRead } = loaderData;
  return (
    <div className="space-y-8">
      <h1 className="border-s-4 border-brand-600 ps-3 text-3xl font-bold">{messages.dashboard}</h1>
      <section aria-labelledby="stats-title" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
        <h2 id="stats-title" className="mb-4 text-xl font-bold">
          {messages.siteStatistics}
        </h2>
        <p className="text-stone-600">
          {messages.totalSiteVisits}:{" "}
          <strong className="text-2xl text-ink" data-testid="total-visits">
            {totalVisits.toLocaleString("ar-LB")}
          </strong>
        </p>
        <h3 className="mt-6 mb-2 font-bold">{messages.mostRead}</h3>
        <ol className="list-inside list-decimal space-y-1">
          {mostRead.map((item) => (
            <li key={item.id}>
              <Link to={articlePath(item.id)} className="hover:text-brand-700">
                {item.title}
              </Link>{" "}
              <span className="text-sm text-stone-500">
                ({item.visits.toLocaleString("ar-LB")} {messages.visits})
              </span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
