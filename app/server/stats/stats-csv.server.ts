import type { StatsReport } from "./read-stats.server";

export const CSV_TABLES = ["series", "top", "categories", "authors", "topics", "sources", "devices"] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

function cell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One table of a report as CSV (UTF-8 with a BOM, so spreadsheets read the Arabic). */
export function statsCsv(report: StatsReport, table: CsvTable, headings: { key: string; label: string; views: string; readers: string }): string {
  const lines =
    table === "series"
      ? [[headings.key, headings.views, headings.readers], ...report.series.map((p) => [p.period, p.views, p.readers])]
      : [[headings.key, headings.label, headings.views], ...report[table].map((row) => [row.key, row.label, row.views])];
  return `\uFEFF${lines.map((line) => line.map(cell).join(",")).join("\r\n")}\r\n`;
}
