import { Link } from "react-router";
import { BREAKING_LIST_SIZE } from "~/lib/breaking";
import { categoryLabel } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import { breakingItemListJsonLd } from "~/lib/structured-data";
import { articlePath } from "~/lib/news";
import { DeleteArticleButton } from "~/components/admin-actions";
import { useLiveBreaking } from "~/components/live-breaking";
import { DraftBadge, EmptyState } from "~/components/news-card";
import { RelativeTime } from "~/components/relative-time";
import { audienceFor } from "~/server/audience.server";
import { getCurrentUser } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listLatest } from "~/server/news.server";
import type { Route } from "./+types/breaking";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getCurrentUser(request);
  const items = await listLatest(db(), { category: "breaking", limit: BREAKING_LIST_SIZE, audience: audienceFor(user) });
  return { items: items.map(({ id, title, createdAt, status }) => ({ id, title, createdAt, status })), isAdmin: user?.role === "admin" };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const baseUrl = baseUrlOf(matches);
  const published = (loaderData?.items ?? []).filter((item) => item.status === "published");
  return [
    ...pageMeta({ baseUrl, path: "/breaking", title: `${categoryLabel("breaking")} | ${messages.siteName}`, description: messages.breakingDescription }),
    { "script:ld+json": breakingItemListJsonLd(baseUrl, published) },
  ];
}

/** Rendered on the server, then kept live by the shared breaking stream (published items only). */
export default function BreakingPage({ loaderData }: Route.ComponentProps) {
  const { isAdmin } = loaderData;
  const live = useLiveBreaking();
  const items = live.live ? live.items.map((item) => ({ ...item, status: "published" as const })) : loaderData.items;
  return (
    <section aria-labelledby="breaking-title" className="mx-auto max-w-3xl">
      <h1 id="breaking-title" className="mb-6 flex items-center gap-3 text-3xl font-bold">
        <span className="relative flex size-3">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-brand-600 opacity-75 motion-reduce:hidden" />
          <span className="relative inline-flex size-3 rounded-full bg-brand-600" />
        </span>
        {categoryLabel("breaking")}
      </h1>
      {items.length === 0 ? (
        <EmptyState text={messages.noBreakingNews} />
      ) : (
        <ol className="space-y-3" data-testid="breaking-list" aria-live="polite">
          {items.map((item) => (
            <li
              key={item.id}
              data-fresh={live.fresh.has(item.id) || undefined}
              className="rounded-lg border-s-4 border-brand-600 bg-white p-4 shadow-sm ring-1 ring-stone-200 transition-colors duration-1000 data-fresh:bg-amber-50 data-fresh:ring-amber-300"
            >
              <div className="flex items-start justify-between gap-3">
                <div>
                  <RelativeTime iso={item.createdAt} className="text-sm font-bold text-brand-700" />
                  {item.status === "draft" && <DraftBadge />}
                  <h2 className="mt-1 text-lg leading-snug font-bold">
                    <Link to={articlePath(item.id)} className="hover:text-brand-700">
                      {item.title}
                    </Link>
                  </h2>
                </div>
                {isAdmin && (
                  <DeleteArticleButton
                    id={item.id}
                    confirmText={messages.confirmDeleteBreaking}
                    redirectTo="/breaking"
                    className="rounded border border-stone-300 px-2 py-1 text-sm font-bold text-brand-700 hover:bg-stone-100"
                  />
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
