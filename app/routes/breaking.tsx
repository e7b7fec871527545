import { Link } from "react-router";
import { categoryLabel } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { articlePath } from "~/lib/news";
import { EmptyState } from "~/components/news-card";
import { RelativeTime } from "~/components/relative-time";
import { DeleteArticleButton } from "~/components/admin-actions";
import { audienceFor } from "~/server/audience.server";
import { getCurrentUser } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listLatest } from "~/server/news.server";
import type { Route } from "./+types/breaking";

const BREAKING_LIST_SIZE = 50;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getCurrentUser(request);
  const items = await listLatest(db(), { category: "breaking", limit: BREAKING_LIST_SIZE, audience: audienceFor(user) });
  return { items, isAdmin: user?.role === "admin" };
}

export function meta() {
  return [{ title: `${categoryLabel("breaking")} | ${messages.siteName}` }, { name: "description", content: messages.siteDescription }];
}

export default function BreakingPage({ loaderData }: Route.ComponentProps) {
  const { items, isAdmin } = loaderData;
  return (
    <section aria-labelledby="breaking-title" className="mx-auto max-w-3xl">
      <h1 id="breaking-title" className="mb-6 flex items-center gap-3 text-3xl font-bold">
        <span className="relative flex size-3">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-brand-600 opacity-75" />
          <span className="relative inline-flex size-3 rounded-full bg-brand-600" />
        </span>
        {categoryLabel("breaking")}
      </h1>
      {items.length === 0 ? (
        <EmptyState text={messages.noBreakingNews} />
      ) : (
        <ol className="space-y-3" data-testid="breaking-list">
          {items.map((item) => (
            <li key={item.id} className="rounded-lg border-s-4 border-brand-600 bg-white p-4 shadow-sm ring-1 ring-stone-200">
              <div className="flex items-start justify-between gap-3">
                <div>
                  <RelativeTime iso={item.createdAt} className="text-sm font-bold text-brand-700" />
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
