import { describe, expect, it } from "vitest";
import { withLatestRun } from "./report";

const PAGE = [
  "# Figures",
  "<!-- bench:start npm run bench -->",
  "old",
  "<!-- bench:end -->",
  "",
  "<!-- bench:start npm run bench:cpu -->",
  "old cpu",
  "<!-- bench:end -->",
  "history",
].join("\n");

describe("a bench's latest run on the benchmarks page", () => {
  it("replaces only the text between its own markers", () => {
    const page = withLatestRun(PAGE, "npm run bench:cpu", "new cpu\n| a | b |");
    expect(page).toBe(PAGE.replace("old cpu", "new cpu\n| a | b |"));
    expect(withLatestRun(page, "npm run bench", "new")).toContain(
      "<!-- bench:start npm run bench -->\nnew\n<!-- bench:end -->\n\n<!-- bench:start npm run bench:cpu -->\nnew cpu",
    );
  });

  it("refuses a page without the bench's markers, writing nothing", () => {
    expect(() => withLatestRun(PAGE, "npm run bench:memory", "x")).toThrow(/bench:start npm run bench:memory/);
  });
});
