import { CATEGORIES, categoryLabel, categoryPath, feedPath, type Category } from "~/lib/categories";
import { CATEGORY_PAGE_SIZE } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { pageFromUrl } from "~/lib/pagination";
import { CategoryList } from "~/components/category-list";
import { categoryPage } from "~/server/news/reader-lists.server";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/category";

function categoryOfPath(pathname: string): Category | undefined {
  return CATEGORIES.find((category) => categoryPath(category) === pathname.replace(/\/+$/, ""));
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const category = categoryOfPath(url.pathname);
  if (!category || category === "breaking") throw pageError(new AppError("not-found"));
  const page = pageFromUrl(url);
  const { items, hasMore } = await categoryPage(site.db, site.readCache, category, page, CATEGORY_PAGE_SIZE);
  return { category, page, items, hasMore };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: messages.pageNotFound }];
  const label = categoryLabel(loaderData.category);
  const path = categoryPath(loaderData.category);
  const paged = loaderData.page > 1;
  return [
    ...pageMeta({
      ...siteMetaOf(matches),
      path: paged ? `${path}?page=${loaderData.page}` : path,
      title: `${label}${paged ? ` - ${messages.page} ${loaderData.page}` : ""} | ${siteOf(matches).name}`,
      description: `${label} ${messages.categoryDescriptionSuffix}`,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: label,
      href: feedPath(loaderData.category),
    },
  ];
}

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category } = loaderData;
  return (
    <section aria-labelledby="category-title">
      <h1 id="category-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {categoryLabel(category)}
      </h1>
      <CategoryList
        {...loaderData}
        path={categoryPath(category)}
        moreApi={`/api/latest?category=${encodeURIComponent(category)}`}
      />
    </section>
  );
}
