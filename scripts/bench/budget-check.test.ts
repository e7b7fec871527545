import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  budgetTable,
  checkBudgets,
  pagesOver,
  READER_PAGES,
  readBudgets,
  type Budgets,
  type Measured,
} from "./budget-check";

const committed = readBudgets(JSON.parse(readFileSync("budgets/reader-pages.json", "utf8")));

/** Measures `npm run budget` printed on this checkout (docs/benchmarks.md, "Reader page budgets"). */
const MEASURED: Measured = {
  home: { cpuRatio: 1.44, htmlBytes: 43290, scriptBytes: 86336, scriptFiles: 15 },
  category: { cpuRatio: 1.51, htmlBytes: 18110, scriptBytes: 84213, scriptFiles: 12 },
  article: { cpuRatio: 1.89, htmlBytes: 29253, scriptBytes: 86277, scriptFiles: 16 },
  live: { cpuRatio: 4.68, htmlBytes: 134047, scriptBytes: 90422, scriptFiles: 21 },
  topic: { cpuRatio: 3.22, htmlBytes: 18923, scriptBytes: 84213, scriptFiles: 12 },
  author: { cpuRatio: 1.89, htmlBytes: 23804, scriptBytes: 83264, scriptFiles: 11 },
  search: { cpuRatio: 3.51, htmlBytes: 20536, scriptBytes: 83264, scriptFiles: 11 },
  breaking: { cpuRatio: 2.94, htmlBytes: 86563, scriptBytes: 85185, scriptFiles: 14 },
};
/** The article's CPU ratio the same command measured with 1 ms of busy work added to the article's loader. */
const ARTICLE_WITH_1MS_MORE = 3.21;

const limit = (budget: number, margin: number) => ({ budget, margin, noise: "measured", reason: "test" });
const oneBudget = (cpu: number, margin = 0.1): Budgets => ({
  about: "",
  reference: "",
  pages: {
    article: {
      cpuRatio: limit(cpu, margin),
      htmlBytes: limit(30_000, 0.02),
      scriptBytes: limit(110_000, 0),
      scriptFiles: limit(35, 0),
    },
  },
});
const article = (cpuRatio: number, htmlBytes = 29_000): Measured => ({
  article: { cpuRatio, htmlBytes, scriptBytes: 110_000, scriptFiles: 35 },
});

describe("the reader pages' budgets", () => {
  it("give every reader page a budget for each measure, with its noise and reason", () => {
    expect(Object.keys(committed.pages).sort()).toEqual([...READER_PAGES].sort());
  });

  it("pass the measures of this checkout and fail the article with 1 ms more CPU per request", () => {
    expect(pagesOver(checkBudgets(committed, MEASURED))).toEqual([]);
    const slower = { ...MEASURED, article: { ...MEASURED.article!, cpuRatio: ARTICLE_WITH_1MS_MORE } };
    const verdicts = checkBudgets(committed, slower);
    expect(verdicts.filter((v) => v.over).map((v) => [v.page, v.measure])).toEqual([["article", "cpuRatio"]]);
  });
});

describe("a page against its budget", () => {
  it("passes up to its budget plus the margin, and is over past it", () => {
    expect(pagesOver(checkBudgets(oneBudget(4), article(4.4)))).toEqual([]);
    expect(pagesOver(checkBudgets(oneBudget(4), article(4.41)))).toEqual(["article"]);
    expect(pagesOver(checkBudgets(oneBudget(4), article(3, 30_601)))).toEqual(["article"]);
    expect(pagesOver(checkBudgets(oneBudget(4, 0), article(4.01)))).toEqual(["article"]);
  });

  it("counts a measure that could not be read as over", () => {
    expect(pagesOver(checkBudgets(oneBudget(4), article(Number.NaN)))).toEqual(["article"]);
  });

  it("refuses a page measured without a budget, or budgeted and not measured", () => {
    expect(() => checkBudgets(oneBudget(4), { ...article(3), home: article(3).article! })).toThrow(/no budget home/);
    expect(() => checkBudgets(oneBudget(4), {})).toThrow(/not measured article/);
  });

  it("prints each measure's value, budget, margin and verdict", () => {
    const table = budgetTable(checkBudgets(oneBudget(4), article(5)));
    expect(table).toMatch(/article\s+CPU per request ÷ reference\s+5\.00\s+4\.00\s+10 %\s+OVER/);
    expect(table).toMatch(/article\s+HTML bytes\s+29000\s+30000\s+2 %\s+OK/);
  });

  it("refuses a budget file without a reason or with a margin past 100 %", () => {
    const { reason: _, ...noReason } = limit(4, 0.1);
    const file = (cpuRatio: object) => ({
      about: "",
      reference: "",
      pages: { article: { ...oneBudget(4).pages.article, cpuRatio } },
    });
    expect(() => readBudgets(file(noReason))).toThrow(/reason/);
    expect(() => readBudgets(file(limit(4, 2)))).toThrow(/margin/);
  });
});
