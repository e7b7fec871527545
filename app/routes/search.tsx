import { Link } from "react-router";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { pageFromUrl } from "~/lib/pagination";
import { MAX_QUERY_LENGTH } from "~/lib/search/search-terms";
import { EmptyState } from "~/components/news-card";
import { SearchForm } from "~/components/search-form";
import { SearchResultItem } from "~/components/search-result";
import { searchNews } from "~/server/news/search-news.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/search";

export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const query = (url.searchParams.get("query") ?? "").slice(0, MAX_QUERY_LENGTH);
  const page = pageFromUrl(url);
  const { results, hasMore } = await searchNews(site.db, query, { page });
  return { query, page, results, hasMore };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const query = loaderData?.query.trim();
  const pageSuffix = loaderData && loaderData.page > 1 ? ` - ${messages.page} ${loaderData.page}` : "";
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/search",
    title: `${query ? `${messages.searchResultsFor} «${query}»` : messages.searchTitle}${pageSuffix} | ${siteOf(matches).name}`,
    description: messages.searchDescription,
    noindex: true,
  });
}

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams({ query });
  if (page > 1) params.set("page", String(page));
  return `/search?${params.toString()}`;
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, page, results, hasMore } = loaderData;
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
            <SearchResultItem key={result.id} result={result} />
          ))}
        </ol>
      )}
      {(page > 1 || hasMore) && !blank && (
        <nav className="mt-8 flex justify-center gap-3" aria-label={messages.page}>
          {page > 1 && (
            <Link
              to={pageHref(query, page - 1)}
              rel="prev"
              className="rounded border border-stone-300 bg-white px-5 py-2 font-bold hover:bg-stone-100"
            >
              {messages.previousPage}
            </Link>
          )}
          {hasMore && (
            <Link
              to={pageHref(query, page + 1)}
              rel="next"
              className="rounded bg-brand-600 px-5 py-2 font-bold text-white hover:bg-brand-700"
            >
              {messages.nextPage}
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
