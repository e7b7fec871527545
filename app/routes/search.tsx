import { Link } from "react-router";
import { formatDay } from "~/lib/dates";
import { categoryLabel } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { articlePath } from "~/lib/news";
import { EmptyState } from "~/components/news-card";
import { SearchForm } from "~/components/search-form";
import { audienceOf } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { MAX_QUERY_LENGTH, searchNews } from "~/server/search.server";
import type { Route } from "./+types/search";

export async function loader({ request }: Route.LoaderArgs) {
  const query = (new URL(request.url).searchParams.get("query") ?? "").slice(0, MAX_QUERY_LENGTH);
  return { query, results: await searchNews(db(), query, await audienceOf(request)) };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  const query = loaderData?.query.trim();
  return [
    { title: `${query ? `${messages.searchResultsFor} «${query}»` : messages.searchTitle} | ${messages.siteName}` },
    { name: "robots", content: "noindex" },
  ];
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, results } = loaderData;
  const blank = query.trim() === "";
  return (
    <section aria-labelledby="search-title" className="mx-auto max-w-3xl">
      <h1 id="search-title" className="mb-4 text-3xl font-bold">
        {blank ? messages.searchTitle : `${messages.searchResultsFor} «${query.trim()}»`}
      </h1>
      <SearchForm id="page-search" defaultValue={query} className="mb-6" />
      {!blank && results.length === 0 && <EmptyState text={messages.noResults} />}
      {results.length > 0 && (
        <ol className="space-y-4" data-testid="search-results">
          {results.map((result) => (
            <li key={result.id} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-stone-200">
              <h2 className="text-lg font-bold">
                <Link to={articlePath(result.id)} className="hover:text-brand-700">
                  {result.title}
                </Link>
              </h2>
              <p className="mt-1 text-xs text-stone-500">
                {categoryLabel(result.category)} · <time dateTime={result.createdAt}>{formatDay(result.createdAt)}</time>
              </p>
              <p className="mt-2 leading-relaxed text-stone-700">{result.snippet}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
