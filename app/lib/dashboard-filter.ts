import { CATEGORIES, type Category } from "./categories";
import { CHOSEN_STATUSES, type ChosenStatus } from "./news";

/** The dashboard list's search and filters, read from and written to its URL (a GET form). */
export type DashboardFilter = {
  /** Words sought in the title, standfirst and text. */
  query: string;
  status: ChosenStatus | null;
  category: Category | null;
  authorId: string | null;
};

/** Every article the dashboard lists. */
export const UNFILTERED: DashboardFilter = { query: "", status: null, category: null, authorId: null };

export const DASHBOARD_QUERY_MAX = 100;

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | null {
  return values.find((value) => value === raw) ?? null;
}

/** Article and account ids are letters, digits, `-` and `_`: anything else (a NUL byte, which PostgreSQL refuses) names nothing. */
function idParam(url: URL, name: string): string | null {
  const value = url.searchParams.get(name);
  return value !== null && /^[\w-]{1,100}$/.test(value) ? value : null;
}

/** Unknown or malformed values mean "no filter": a hand-edited URL shows the whole list, never an error. */
export function dashboardFilterFromUrl(url: URL): DashboardFilter {
  return {
    query: (url.searchParams.get("q") ?? "")
      .replace(/[\p{Cc}\s]+/gu, " ")
      .trim()
      .slice(0, DASHBOARD_QUERY_MAX),
    status: oneOf(CHOSEN_STATUSES, url.searchParams.get("status")),
    category: oneOf(CATEGORIES, url.searchParams.get("category")),
    authorId: idParam(url, "author"),
  };
}

/** The article the dashboard was just redirected after saving, if the URL names one sensibly. */
export function savedIdFromUrl(url: URL): string | null {
  return idParam(url, "saved");
}

export function isFiltered(filter: DashboardFilter): boolean {
  return filter.query !== "" || filter.status !== null || filter.category !== null || filter.authorId !== null;
}

/** The dashboard's address for `filter` and `page`, with only the parameters in use. */
export function dashboardPath(filter: DashboardFilter, page = 1): string {
  const params = new URLSearchParams();
  if (filter.query) params.set("q", filter.query);
  if (filter.status) params.set("status", filter.status);
  if (filter.category) params.set("category", filter.category);
  if (filter.authorId) params.set("author", filter.authorId);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/dashboard?${query}` : "/dashboard";
}
