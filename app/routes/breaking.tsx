import { categoryLabel, feedPath } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { isEditor } from "~/lib/permissions";
import { pageMeta, siteMetaOf } from "~/lib/seo";
import { breakingItemListJsonLd } from "~/lib/structured-data";
import { BreakingList } from "~/components/breaking/list";
import { AlertBell } from "~/components/alert-bell/alert-bell";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { listBreaking } from "~/server/news/reader-lists.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/breaking";

export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await getCurrentUser(site.auth, request);
  return { items: await listBreaking(site.db), isAdmin: isEditor(user) };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const { baseUrl, site } = siteMetaOf(matches);
  return [
    ...pageMeta({
      baseUrl,
      site,
      path: "/breaking",
      title: `${categoryLabel("breaking")} | ${site.name}`,
      description: messages.breakingDescription,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: categoryLabel("breaking"),
      href: feedPath("breaking"),
    },
    { "script:ld+json": breakingItemListJsonLd(baseUrl, loaderData?.items ?? []) },
  ];
}

/** Rendered on the server, then kept live by the shared breaking stream (published items only). */
export default function BreakingPage({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="breaking-title" className="mx-auto max-w-3xl">
      <h1 id="breaking-title" className="mb-6 flex items-center gap-3 text-3xl font-bold">
        <span className="relative flex size-3">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-brand-600 opacity-75 motion-reduce:hidden" />
          <span className="relative inline-flex size-3 rounded-full bg-brand-600" />
        </span>
        {categoryLabel("breaking")}
      </h1>
      <div className="mb-6 min-h-9">
        <AlertBell />
      </div>
      <BreakingList initial={loaderData.items} isAdmin={loaderData.isAdmin} />
    </section>
  );
}
