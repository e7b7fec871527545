/**
 * The reader pages' budgets (budgets/reader-pages.json) and the comparison `npm run budget` makes:
 * a measure is over when it passes its budget by more than the budget's noise margin.
 */
import { z } from "zod";

/** The reader pages `npm run budget` measures, each with a budget. */
export const READER_PAGES = ["home", "category", "article", "live", "topic", "author", "search", "breaking"] as const;
export type ReaderPage = (typeof READER_PAGES)[number];

export const MEASURES = ["cpuRatio", "htmlBytes", "scriptBytes", "scriptFiles"] as const;
export type Measure = (typeof MEASURES)[number];

/** What each measure is, as the table and the budget file name it. */
export const MEASURE_LABELS: Record<Measure, string> = {
  cpuRatio: "CPU per request ÷ reference",
  htmlBytes: "HTML bytes",
  scriptBytes: "script bytes (as served)",
  scriptFiles: "script files",
};

/** `margin`: the noise allowed past the budget, as a share of it (0.1: 10 %). */
const limitSchema = z.strictObject({
  budget: z.number().positive(),
  margin: z.number().min(0).max(1),
  noise: z.string().min(1),
  reason: z.string().min(1),
});
export type Limit = z.infer<typeof limitSchema>;

const budgetsSchema = z.strictObject({
  about: z.string(),
  reference: z.string(),
  pages: z.record(
    z.string(),
    z.strictObject({
      cpuRatio: limitSchema,
      htmlBytes: limitSchema,
      scriptBytes: limitSchema,
      scriptFiles: limitSchema,
    }),
  ),
});
export type Budgets = z.infer<typeof budgetsSchema>;

export type Measured = Record<string, Record<Measure, number>>;
export type Verdict = { page: string; measure: Measure; value: number; limit: Limit; over: boolean };

/** The budget file's contents, checked: a file a reviewer edited by hand fails here with the field at fault. */
export function readBudgets(json: unknown): Budgets {
  return budgetsSchema.parse(json);
}

/** The highest value a measure may take: its budget plus the margin. */
export function ceilingOf(limit: Limit): number {
  return limit.budget * (1 + limit.margin);
}

/** Each page's measures against their budgets; a page measured without a budget, or budgeted and not measured, is an error. */
export function checkBudgets(budgets: Budgets, measured: Measured): Verdict[] {
  const budgeted = Object.keys(budgets.pages);
  const missing = budgeted.filter((page) => !(page in measured));
  const unbudgeted = Object.keys(measured).filter((page) => !(page in budgets.pages));
  if (missing.length || unbudgeted.length)
    throw new Error(
      `pages measured and budgeted differ: not measured ${missing.join(", ") || "none"}; no budget ${unbudgeted.join(", ") || "none"}`,
    );
  return budgeted.flatMap((page) =>
    MEASURES.map((measure) => {
      const limit = budgets.pages[page]![measure];
      const value = measured[page]![measure];
      return { page, measure, value, limit, over: !(value <= ceilingOf(limit)) };
    }),
  );
}

/** The pages with at least one measure over. */
export function pagesOver(verdicts: Verdict[]): string[] {
  return [...new Set(verdicts.filter((v) => v.over).map((v) => v.page))];
}

function shown(measure: Measure, n: number): string {
  return measure === "cpuRatio" ? n.toFixed(2) : String(Math.round(n));
}

/** The table `npm run budget` prints: page, measure, value, budget, margin, OK or OVER. */
export function budgetTable(verdicts: Verdict[]): string {
  const rows = [
    ["page", "measure", "value", "budget", "margin", ""],
    ...verdicts.map((v) => [
      v.page,
      MEASURE_LABELS[v.measure],
      shown(v.measure, v.value),
      shown(v.measure, v.limit.budget),
      `${Math.round(v.limit.margin * 100)} %`,
      v.over ? "OVER" : "OK",
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
