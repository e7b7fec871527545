import { CATEGORIES, type Category } from "./categories";
import { CHOSEN_STATUSES, type ChosenStatus } from "./news";

/** The dashboard list's search and filters, read from and written to its URL (a GET form). */
export type DashboardFilter = {
  title: string;
  status: ChosenStatus | null;
  category: Category | null;
  authorId: string | null;
};

export const DASHBOARD_TITLE_QUERY_MAX = 100;

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | null {
  return values.find((value) => value === raw) ?? null;
}

/** Unknown or malformed values mean "no filter": a hand-edited URL shows the whole list, never an error. */
export function dashboardFilterFromUrl(url: URL): DashboardFilter {
  const authorId = url.searchParams.get("author")?.trim() ?? "";
  return {
    title: (url.searchParams.get("q") ?? "").replace(/\s+/g, " ").trim().slice(0, DASHBOARD_TITLE_QUERY_MAX),
    status: oneOf(CHOSEN_STATUSES, url.searchParams.get("status")),
    category: oneOf(CATEGORIES, url.searchParams.get("category")),
    authorId: authorId.length > 0 && authorId.length <= 100 ? authorId : null,
  };
}

export function isFiltered(filter: DashboardFilter): boolean {
  return filter.title !== "" || filter.status !== null || filter.category !== null || filter.authorId !== null;
}

/** The dashboard's address for `filter` and `page`, with only the parameters in use. */
export function dashboardPath(filter: DashboardFilter, page = 1): string {
  const params = new URLSearchParams();
  if (filter.title) params.set("q", filter.title);
  if (filter.status) params.set("status", filter.status);
  if (filter.category) params.set("category", filter.category);
  if (filter.authorId) params.set("author", filter.authorId);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/dashboard?${query}` : "/dashboard";
}
