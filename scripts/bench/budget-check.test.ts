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
  home: { cpuRatio: 2.2, htmlBytes: 43307, scriptBytes: 109083, scriptFiles: 35 },
  category: { cpuRatio: 2.1, htmlBytes: 18127, scriptBytes: 109083, scriptFiles: 35 },
  article: { cpuRatio: 3.45, htmlBytes: 29270, scriptBytes: 109083, scriptFiles: 35 },
  live: { cpuRatio: 9.8, htmlBytes: 134064, scriptBytes: 109083, scriptFiles: 35 },
  topic: { cpuRatio: 4.2, htmlBytes: 18942, scriptBytes: 109083, scriptFiles: 35 },
  author: { cpuRatio: 2.6, htmlBytes: 23835, scriptBytes: 109083, scriptFiles: 35 },
  search: { cpuRatio: 3.8, htmlBytes: 20537, scriptBytes: 109083, scriptFiles: 35 },
  breaking: { cpuRatio: 3.7, htmlBytes: 86576, scriptBytes: 109083, scriptFiles: 35 },
};
/** The article's CPU ratio the same command measured with 1 ms of busy work added to the article's loader. */
const ARTICLE_WITH_1MS_MORE = 4.87;

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
