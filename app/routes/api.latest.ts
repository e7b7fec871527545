import { data } from "react-router";
import { isCategory } from "~/lib/categories";
import { CATEGORY_PAGE_SIZE, LATEST_NEWS_COUNT } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { pageFromUrl } from "~/lib/pagination";
import { CACHE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import { audienceOf } from "~/server/accounts/guards.server";
import { listCategoryPage, listLatest } from "~/server/news/articles-read.server";
import { topicPageBySlug } from "~/server/news/topic-page.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.latest";

/**
 * The latest news for the home page's refresh, or with ?category=…&page=N (or ?topic={slug}&page=N)
 * one page of a category (or a topic) for its 'المزيد' button.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const audience = await audienceOf(site.auth, request);
  const headers = { "Cache-Control": audience.includeDrafts ? CACHE.personal : CACHE.publicPage };
  const topic = url.searchParams.get("topic");
  // A topic's page lists published articles only, whoever reads it.
  if (topic !== null) return data(await topicPageBySlug(site.db, topic, pageFromUrl(url), CATEGORY_PAGE_SIZE), { headers: { "Cache-Control": CACHE.publicPage } });
  const category = url.searchParams.get("category");
  if (category === null) {
    return data({ items: await listLatest(site.db, { limit: LATEST_NEWS_COUNT, audience }) }, { headers });
  }
  if (!isCategory(category) || category === "breaking") {
    return errorResponse(new AppError("bad-request", { message: messages.categoryInvalid }));
  }
  const page = pageFromUrl(url);
  const { items, hasMore } = await listCategoryPage(site.db, category, page, CATEGORY_PAGE_SIZE, audience);
  return data({ items, page, hasMore }, { headers });
}
