import { useEffect, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { CATEGORIES, categoryLabel, categoryPath, type Category } from "~/lib/categories";
import { CATEGORY_PAGE_SIZE } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import type { NewsSummary } from "~/lib/news";
import { pageFromUrl } from "~/lib/pagination";
import { EmptyState, NewsCard } from "~/components/news-card";
import { audienceOf } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listCategoryPage } from "~/server/news.server";
import type { Route } from "./+types/category";

function categoryOfPath(pathname: string): Category | undefined {
  return CATEGORIES.find((category) => categoryPath(category) === pathname.replace(/\/+$/, ""));
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const category = categoryOfPath(url.pathname);
  if (!category || category === "breaking") throw data({ message: messages.pageNotFound }, 404);
  const page = pageFromUrl(url);
  const { items, hasMore } = await listCategoryPage(db(), category, page, CATEGORY_PAGE_SIZE, await audienceOf(request));
  return { category, page, items, hasMore };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: messages.pageNotFound }];
  const label = categoryLabel(loaderData.category);
  const path = categoryPath(loaderData.category);
  const paged = loaderData.page > 1;
  return [
    ...pageMeta({
      baseUrl: baseUrlOf(matches),
      path: paged ? `${path}?page=${loaderData.page}` : path,
      title: `${label}${paged ? ` - ${messages.page} ${loaderData.page}` : ""} | ${messages.siteName}`,
      description: `${label} ${messages.categoryDescriptionSuffix}`,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: label, href: `${path}/rss.xml` },
  ];
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, page, items, hasMore } = loaderData;
  const more = useFetcher<typeof loader>();
  const [extra, setExtra] = useState<{ items: NewsSummary[]; page: number; hasMore: boolean }>({ items: [], page, hasMore });

  useEffect(() => setExtra({ items: [], page, hasMore }), [category, page, hasMore]);
  useEffect(() => {
    const next = more.data;
    if (!next || next.category !== category || next.page !== extra.page + 1) return;
    setExtra((current) => ({ items: [...current.items, ...next.items], page: next.page, hasMore: next.hasMore }));
  }, [more.data, category, extra.page]);

  const shown = [...items, ...extra.items];
  const path = categoryPath(category);
  const nextHref = `${path}?page=${extra.page + 1}`;

  return (
    <section aria-labelledby="category-title">
      <h1 id="category-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {categoryLabel(category)}
      </h1>
      {shown.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="category-list">
          {shown.map((item, index) => (
            <NewsCard key={item.id} item={item} eager={index < 3 && page === 1} />
          ))}
        </div>
      )}
      <nav className="mt-8 flex justify-center gap-3" aria-label={messages.page}>
        {page > 1 && extra.items.length === 0 && (
          <Link to={page === 2 ? path : `${path}?page=${page - 1}`} rel="prev" className="rounded border border-stone-300 bg-white px-5 py-2 font-bold hover:bg-stone-100">
            {messages.previousPage}
          </Link>
        )}
        {extra.hasMore && (
          <Link
            to={nextHref}
            rel="next"
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              if (more.state === "idle") more.load(nextHref);
            }}
            aria-busy={more.state !== "idle"}
            className="rounded bg-brand-600 px-8 py-2 font-bold text-white hover:bg-brand-700"
          >
            {more.state === "idle" ? messages.more : messages.loading}
          </Link>
        )}
      </nav>
    </section>
  );
}
