/** The ranges of `/dashboard/stats` (docs/product.md#analytics). */
export const STATS_RANGES = ["today", "7d", "30d"] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export function statsRangeOf(value: string | null): StatsRange {
  return (STATS_RANGES as readonly string[]).includes(value ?? "") ? (value as StatsRange) : "today";
}
