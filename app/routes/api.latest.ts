import { data } from "react-router";
import { isCategory } from "~/lib/categories";
import { CATEGORY_PAGE_SIZE, LATEST_NEWS_COUNT } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { pageFromUrl } from "~/lib/pagination";
import { CACHE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import { listLatest } from "~/server/news/articles-read.server";
import { categoryPage } from "~/server/news/reader-lists.server";
import { topicPageBySlug } from "~/server/news/topic-page.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.latest";

/**
 * The latest news for the home page's refresh, or with ?category=…&page=N (or ?topic={slug}&page=N)
 * one page of a category (or a topic) for its 'المزيد' button.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const headers = { "Cache-Control": CACHE.publicPage };
  const topic = url.searchParams.get("topic");
  if (topic !== null)
    return data(await topicPageBySlug(site.db, topic, pageFromUrl(url), CATEGORY_PAGE_SIZE), { headers });
  const category = url.searchParams.get("category");
  if (category === null) {
    return data({ items: await listLatest(site.db, { limit: LATEST_NEWS_COUNT }) }, { headers });
  }
  if (!isCategory(category) || category === "breaking") {
    return errorResponse(new AppError("bad-request", { message: messages.categoryInvalid }));
  }
  const page = pageFromUrl(url);
  const { items, hasMore } = await categoryPage(site.db, site.readCache, category, page, CATEGORY_PAGE_SIZE);
  return data({ items, page, hasMore }, { headers });
}
