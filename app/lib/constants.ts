/** The product's constants (docs/product.md#lists and the sections that name them). */
export const CATEGORY_PAGE_SIZE = 6;
export const SLIDER_COUNT = 4;
export const SLIDER_INTERVAL_MS = 4_000;
export const LATEST_NEWS_COUNT = 6;
export const LATEST_NEWS_REFRESH_MS = 60_000;
export const MOST_READ_FETCHED = 8;
export const MOST_READ_SHOWN = 4;
export const RELATED_COUNT = 2;
export const SHORT_ID_MIN = 100_000;
export const SHORT_ID_MAX = 999_999;
export const SCROLL_TOP_THRESHOLD_PX = 300;
export const SEARCH_SNIPPET_LENGTH = 100;
export const SHARE_TEXT_LENGTH = 100;
export const MIN_PASSWORD_LENGTH = 6;
/** The four roles, from reader to admin (docs/product.md#roles). */
export const ROLES = ["user", "author", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export const VISITED_NEWS_KEY = "visitedNews";
export const VISITED_SITES_KEY = "visitedSites";
export const TIME_ZONE = "Asia/Beirut";
export const LOCALE = "ar-LB";
/** The browser's own random name for itself in localStorage (not a cookie): one reader, counted once per article. */
export const READER_ID_KEY = "readerId";
/** Distinct browsers one address counts per article, and for the site, per UTC day (docs/product.md#visits). */
export const VISITS_PER_ADDRESS_PER_ARTICLE = 100;
export const VISITS_PER_ADDRESS_FOR_SITE = 1_000;
/** Hourly figures are kept this many days; daily ones for ever. */
export const HOURLY_STATS_DAYS = 90;
/** The "now" panel: readers whose view arrived in the last this many minutes. */
export const LIVE_MINUTES = 5;
/** Web Push subscriptions one address may make in an hour, and the most the site keeps (docs/product.md#web-push-alerts). */
export const PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR = 60;
export const PUSH_SUBSCRIPTIONS_MAX = 100_000;
