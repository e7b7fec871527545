import type { FirestoreExport } from "./firestore-export.server";

/** What the import counts and warns about, kind by kind, as the CLI prints it. */
export const REPORT_KINDS = ["articles", "legacy news", "short links", "media", "accounts", "site visits"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export type KindCounts = { created: number; updated: number; unchanged: number; skipped: number };
export type ImportWarning = { kind: ReportKind; id: string; message: string };

export type ImportReport = {
  dryRun: boolean;
  layout: FirestoreExport["layout"];
  counts: Record<ReportKind, KindCounts>;
  warnings: ImportWarning[];
  /** Legacy `news` items that already were articles, and the article each matched. */
  matched: { legacyId: string; articleId: string }[];
};

export function newReport(dryRun: boolean, layout: FirestoreExport["layout"]): ImportReport {
  const counts = Object.fromEntries(
    REPORT_KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0, skipped: 0 }]),
  ) as Record<ReportKind, KindCounts>;
  return { dryRun, layout, counts, warnings: [], matched: [] };
}

/** Reports `message` about document `id`; counted as skipped unless `skipped` is false (imported with a change). */
export function warn(report: ImportReport, kind: ReportKind, id: string, message: string, skipped = true): void {
  report.warnings.push({ kind, id, message });
  if (skipped) report.counts[kind].skipped++;
}
