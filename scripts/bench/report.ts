/**
 * The result a bench prints last, and with `--write` also puts into docs/benchmarks.md between its
 * `<!-- bench:start npm run NAME -->` and `<!-- bench:end -->` markers, headed by the commit, the time
 * and the machine's load average, so the page's "Latest runs" are what the scripts printed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";

const BENCHMARKS_PAGE = path.resolve("docs/benchmarks.md");

export type BenchReport = { line: (text?: string) => void; finish: () => void };

/** `command` is the npm script as the markers name it, e.g. "npm run bench:cpu". */
export function benchReport(command: string, argv: readonly string[] = process.argv): BenchReport {
  const lines: string[] = [];
  return {
    line: (text = "") => {
      console.log(text);
      lines.push(text);
    },
    finish: () => {
      if (!argv.includes("--write")) return;
      writeFileSync(
        BENCHMARKS_PAGE,
        withLatestRun(
          readFileSync(BENCHMARKS_PAGE, "utf8"),
          command,
          `${heading(command)}\n\n${lines.join("\n").trim()}`,
        ),
      );
      console.log(`\nwritten to ${path.relative(process.cwd(), BENCHMARKS_PAGE)}`);
    },
  };
}

/** `page` with the text between `command`'s markers replaced by `text`; throws if the markers are missing. */
export function withLatestRun(page: string, command: string, text: string): string {
  const start = `<!-- bench:start ${command} -->`;
  const from = page.indexOf(start);
  const to = from < 0 ? -1 : page.indexOf("<!-- bench:end -->", from);
  if (to < 0) throw new Error(`docs/benchmarks.md has no "${start}" … "<!-- bench:end -->" section`);
  return `${page.slice(0, from + start.length)}\n${text}\n${page.slice(to)}`;
}

function heading(command: string): string {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"]).toString().trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"]).toString().trim()
    ? " with uncommitted changes"
    : "";
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(", ");
  const args = process.argv.slice(2).filter((arg) => arg !== "--write");
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith("BENCH_"))
    .map(([name, value]) => `${name}=${value} `);
  const run = `${settings.join("")}${command}${args.length ? ` -- ${args.join(" ")}` : ""}`;
  return `\`${run}\` at \`${commit}\`${dirty}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${load} at the end:`;
}
