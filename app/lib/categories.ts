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

type CategoryInfo = { path: string; label: string };

export const CATEGORY_INFO: Record<Category, CategoryInfo> = {
  local: { path: "/local", label: "أخبار محلية" },
  international: { path: "/international", label: "أخبار دولية" },
  educational: { path: "/educatonal", label: "أخبار تربوية" },
  sports: { path: "/sports", label: "رياضة" },
  miscellaneous: { path: "/miscellaneous", label: "منوعات" },
  breaking: { path: "/breaking", label: "عاجل" },
  advertisement: { path: "/advertisement", label: "إعلانات" },
};

/** Categories that get one "pick" on the article page. */
export const PICK_CATEGORIES: readonly Category[] = [
  "local",
  "international",
  "educational",
  "sports",
  "miscellaneous",
];

/** Grouped under 'أخبار لبنان' in the mobile menu. */
export const LEBANON_CATEGORIES: readonly Category[] = ["local", "sports", "educational", "miscellaneous"];

/** Order of the navigation bar after home. */
export const NAV_CATEGORIES: readonly Category[] = [
  "local",
  "international",
  "educational",
  "sports",
  "miscellaneous",
  "breaking",
  "advertisement",
];

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

export function categoryPath(category: Category): string {
  return CATEGORY_INFO[category].path;
}

export function categoryLabel(category: Category): string {
  return CATEGORY_INFO[category].label;
}
