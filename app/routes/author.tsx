import { authorPath } from "~/lib/bylines";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { pageFromUrl } from "~/lib/pagination";
import { EmptyState, NewsCard } from "~/components/news-card";
import { listAuthorArticles } from "~/server/news/author-articles.server";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import { AuthorCard } from "~/components/author-profile";
import { authorProfileByName } from "~/server/accounts/author-profile.server";
import { authorPageJsonLd } from "~/lib/structured-data";
import type { Route } from "./+types/author";

const AUTHOR_PAGE_SIZE = 12;

/** An author's published articles, newest first: the same page for everyone, so the page cache keeps it. */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const username = params.username;
  const page = pageFromUrl(url);
  const [list, profile] = await Promise.all([
    listAuthorArticles(site.db, username, page, AUTHOR_PAGE_SIZE),
    authorProfileByName(site.db, username),
  ]);
  if (!list || !profile) throw pageError(new AppError("not-found"));
  return { username, page, profile, ...list };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData)
    return [{ title: `${messages.pageNotFound} | ${siteOf(matches).name}` }, { name: "robots", content: "noindex" }];
  const { username, page, profile } = loaderData;
  const path = authorPath(username);
  const title = `${messages.authorArticles} ${username}`;
  const { baseUrl, site } = siteMetaOf(matches);
  return [
    ...pageMeta({
      baseUrl,
      site,
      path: page > 1 ? `${path}?page=${page}` : path,
      title: `${title}${page > 1 ? ` - ${messages.page} ${page}` : ""} | ${site.name}`,
      description: profile.bio ?? `${title} - ${site.name}`,
      image: profile.photo ? { url: profile.photo, width: 400, height: 400, alt: username } : undefined,
    }),
    { "script:ld+json": authorPageJsonLd(baseUrl, username, profile) },
  ];
}

const pageLink = "rounded border border-stone-300 bg-white px-5 py-2 font-bold hover:bg-stone-100";

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const { username, page, items, hasMore, profile } = loaderData;
  const path = authorPath(username);
  return (
    <section aria-labelledby="author-title">
      <h1 id="author-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {messages.authorArticles} {username}
      </h1>
      <AuthorCard name={username} profile={profile} />
      {items.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="author-articles">
          {items.map((item, index) => (
            <NewsCard key={item.id} item={item} eager={index < 3 && page === 1} showCredit={false} />
          ))}
        </div>
      )}
      <nav className="mt-8 flex justify-center gap-3" aria-label={messages.page}>
        {page > 1 && (
          <a href={page === 2 ? path : `${path}?page=${page - 1}`} rel="prev" className={pageLink}>
            {messages.previousPage}
          </a>
        )}
        {hasMore && (
          <a href={`${path}?page=${page + 1}`} rel="next" className={pageLink}>
            {messages.nextPage}
          </a>
        )}
      </nav>
    </section>
  );
}
