import { categoryLabel, isCategory } from "./categories";
import { statsMessages as m } from "./newsroom-messages";

/** The stats page's tables of rows (a key, its stored label, views): the page and its CSV name each row alike. */
export const STATS_ROW_TABLES = ["top", "categories", "authors", "topics", "sources", "devices"] as const;
export type StatsRowTable = (typeof STATS_ROW_TABLES)[number];

export const sourceLabel = (key: string): string => (m.sourceLabels as Record<string, string>)[key] ?? key;
const deviceLabel = (key: string): string => (m.deviceLabels as Record<string, string>)[key] ?? key;

/** What the stats page calls a row of `table`: a story's or topic's title, an author's name, a class's Arabic label. */
export function statsRowLabel(table: StatsRowTable, row: { key: string; label: string }): string {
  switch (table) {
    case "categories":
      return isCategory(row.key) ? categoryLabel(row.key) : row.key;
    case "authors":
      return row.key ? row.label : m.noAuthor;
    case "sources":
      return sourceLabel(row.key);
    case "devices":
      return deviceLabel(row.key);
    case "top":
    case "topics":
      return row.label;
  }
}
