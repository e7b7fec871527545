import { TIME_ZONE } from "~/lib/constants";
import { STATS_ROW_TABLES, statsRowLabel, type StatsRowTable } from "~/lib/stats-labels";
import type { StatsReport } from "./read-stats.server";

export const CSV_TABLES = ["series", ...STATS_ROW_TABLES] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

export type CsvHeadings = { hour: string; day: string; key: string; label: string; views: string; readers: string };

function cell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const beirutHourParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

/** A stored UTC hour ("2026-11-28T20") as the hour it was in Beirut, as a spreadsheet sorts it: "2026-11-28 22:00". */
function beirutHour(utcHour: string): string {
  const parts = Object.fromEntries(
    beirutHourParts.formatToParts(new Date(`${utcHour}:00:00Z`)).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:00`;
}

/**
 * One table of a report as CSV (UTF-8 with a BOM, so spreadsheets read the Arabic), as the page shows it:
 * its labels, and its times in Beirut (hours are stored in UTC, days are Beirut's already).
 */
export function statsCsv(report: StatsReport, table: CsvTable, headings: CsvHeadings): string {
  const hourly = report.range === "today";
  const lines =
    table === "series"
      ? [
          [hourly ? headings.hour : headings.day, headings.views, headings.readers],
          ...report.series.map((p) => [hourly ? beirutHour(p.period) : p.period, p.views, p.readers]),
        ]
      : [
          [headings.key, headings.label, headings.views],
          ...report[table].map((row) => [row.key, statsRowLabel(table satisfies StatsRowTable, row), row.views]),
        ];
  return `\uFEFF${lines.map((line) => line.map(cell).join(",")).join("\r\n")}\r\n`;
}
