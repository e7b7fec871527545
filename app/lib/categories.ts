import { categoryLabels } from "./messages";

/** Every category, in the order of the navigation bar after home. */
export const CATEGORIES = [
  "local",
  "international",
  "educational",
  "sports",
  "miscellaneous",
  "breaking",
  "advertisement",
] as const;
export type Category = (typeof CATEGORIES)[number];
/** Every category's name from messages.ts: one left out there fails the typecheck here. */
const LABELS: Record<Category, string> = categoryLabels;

const CATEGORY_PATHS: Record<Category, string> = {
  local: "/local",
  international: "/international",
  educational: "/educatonal",
  sports: "/sports",
  miscellaneous: "/miscellaneous",
  breaking: "/breaking",
  advertisement: "/advertisement",
};

/** Categories that get one "pick" on the article page. */
export const PICK_CATEGORIES: readonly Category[] = [
  "local",
  "international",
  "educational",
  "sports",
  "miscellaneous",
];

/** What a newsletter subscriber may choose beyond the brief and breaking news: the categories of their own stories. */
export const NEWSLETTER_CATEGORIES: readonly Category[] = [
  "local",
  "international",
  "educational",
  "sports",
  "miscellaneous",
];

/** Grouped under 'أخبار لبنان' in the mobile menu. */
export const LEBANON_CATEGORIES: readonly Category[] = ["local", "sports", "educational", "miscellaneous"];

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

export function categoryPath(category: Category): string {
  return CATEGORY_PATHS[category];
}

/** The site's RSS feed, or one category's. */
export function feedPath(category?: Category): string {
  return category ? `${categoryPath(category)}/rss.xml` : "/rss.xml";
}

export function categoryLabel(category: Category): string {
  return LABELS[category];
}
