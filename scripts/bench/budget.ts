/**
 * npm run budget: every reader page against its budget in budgets/reader-pages.json. Seeds an archive
 * (BENCH_ARTICLES, 10000) with an author, a topic and a live story, starts the production server
 * (WORKERS=1, page cache off) and the reference (reference.ts: a bare node:http server building a fixed
 * page in plain JavaScript for every request), each in its own process, and loads them in turn from wrk: every page, BENCH_ROUNDS times, each page's run
 * between two of the reference's. A page's CPU per request (the server's utime + stime over the run ÷
 * the requests wrk completed) is divided by the reference's just before and after it, so the machine's
 * speed, and what else runs on it meanwhile, cancel out; the median of the rounds is checked. Also each page's HTML (uncompressed)
 * and the scripts it loads, as served with brotli. Prints the table and exits 1 when a page is over its
 * budget by more than the budget's margin; the last line is "N passed, N failed", one per page.
 * BENCH_SECONDS (2) per run, BENCH_ROUNDS (3), BENCH_PORT (5350: this port and the next).
 * `-- --json <file>`: also writes the measures there (for measuring the noise between runs).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { launchChromium, pageWeight } from "../../harness/page-weight";
import { cpuTimeMs, exitedChildrenCpuTimeMs, machineCpuMs } from "../../harness/processes";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";
import {
  budgetTable,
  checkBudgets,
  ceilingOf,
  MEASURE_LABELS,
  pagesOver,
  readBudgets,
  type Measured,
  type ReaderPage,
} from "./budget-check";
import { seedArticles } from "./data";
import { loadTest, servedResponse, startReference } from "./load";
import { benchReport } from "./report";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 5350);
const WARM_UP_SECONDS = 3;
const REFERENCE_SECONDS = 1;
/** Enough to keep the one server process busy while wrk, on the other core, waits on it. */
const CONNECTIONS = 16;
const HEADERS = { "accept-encoding": "br, gzip" };
const BUDGETS_FILE = path.resolve("budgets/reader-pages.json");

const { values: flags } = parseArgs({
  options: { json: { type: "string" }, write: { type: "boolean" } },
  strict: true,
});
const budgets = readBudgets(JSON.parse(readFileSync(BUDGETS_FILE, "utf8")));
/** Past this share of the machine's CPU taken by other processes during the rounds, the CPU ratios run high. */
const BUSY_MACHINE = 0.25;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The server's CPU milliseconds per request over one wrk run against `url`. */
async function cpuPerRequest(pid: number, url: string, seconds: number): Promise<number> {
  const before = cpuTimeMs(pid);
  const load = await loadTest(url, { connections: CONNECTIONS, seconds, headers: HEADERS });
  const spent = cpuTimeMs(pid) - before;
  if (load.errors > 0 || load.requests === 0)
    throw new Error(`${url}: ${load.errors} errors in ${load.requests} requests under load`);
  return spent / load.requests;
}

ensureBuild();
const started = Date.now();
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-budget-"));
const env = { DATABASE_URL: path.join(dir, "budget.db"), MEDIA_DIR: path.join(dir, "media") };
const measured: Measured = {};
const ratios = new Map<string, number[]>();
let otherWork = 0;
try {
  console.log(`seeding ${ARTICLES} articles…`);
  const { pages: seeded } = await seedArticles(env, ARTICLES, { forReaderPages: true });
  const pages: Record<ReaderPage, string> = {
    home: "/",
    category: "/local",
    article: seeded!.article,
    live: seeded!.live,
    topic: seeded!.topic,
    author: seeded!.author,
    search: `/search?query=${encodeURIComponent("طرابلس")}`,
    breaking: "/breaking",
  };
  const server = await startTestServer({
    ...env,
    PORT: String(FIRST_PORT),
    PAGE_CACHE_SECONDS: "0",
    LOG_LEVEL: "error",
  });
  const reference = await startReference(FIRST_PORT + 1);
  try {
    const browser = await launchChromium();
    try {
      for (const [page, route] of Object.entries(pages)) {
        const html = await servedResponse(`${server.url}${route}`, {});
        if (html.status !== 200) throw new Error(`${page} (${route}) answered ${html.status}, not 200`);
        const scripts = await pageWeight(browser, server.url, route);
        measured[page] = {
          cpuRatio: 0,
          htmlBytes: html.body.length,
          scriptBytes: scripts.js,
          scriptFiles: scripts.jsFiles.length,
        };
      }
    } finally {
      await browser.close();
    }
    const referenceCpu = () => cpuPerRequest(reference.pid, reference.url, REFERENCE_SECONDS);
    await referenceCpu();
    for (const route of Object.values(pages)) await cpuPerRequest(server.pid, `${server.url}${route}`, WARM_UP_SECONDS);
    const names = Object.keys(pages) as ReaderPage[];
    // What the machine spent beside the server, the reference, wrk and this process, while the rounds ran.
    const ours = () =>
      cpuTimeMs(server.pid) + cpuTimeMs(reference.pid) + cpuTimeMs(process.pid) + exitedChildrenCpuTimeMs();
    const [machineBefore, oursBefore, startedRounds] = [machineCpuMs().busy, ours(), Date.now()];
    let before = await referenceCpu();
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts at another page; each page's run sits between two of the reference's.
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      const line: string[] = [];
      for (const page of order) {
        const cpu = await cpuPerRequest(server.pid, `${server.url}${pages[page]}`, SECONDS);
        const after = await referenceCpu();
        const ratio = cpu / ((before + after) / 2);
        ratios.set(page, [...(ratios.get(page) ?? []), ratio]);
        line.push(`${page} ${ratio.toFixed(1)}`);
        before = after;
      }
      console.log(`round ${round + 1}: ${line.join(", ")}; reference ${(before * 1000).toFixed(1)} µs/request`);
    }
    otherWork =
      (machineCpuMs().busy - machineBefore - (ours() - oursBefore)) /
      ((Date.now() - startedRounds) * availableParallelism());
    for (const page of names) measured[page]!.cpuRatio = median(ratios.get(page)!);
  } finally {
    await reference.stop();
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (flags.json) writeFileSync(flags.json, JSON.stringify({ measured, ratios: Object.fromEntries(ratios) }, null, 2));
const verdicts = checkBudgets(budgets, measured);
const over = pagesOver(verdicts);
const report = benchReport("npm run budget");
report.line(
  `\nSQLite, ${ARTICLES} articles, WORKERS=1, page cache off; wrk ${CONNECTIONS} connections × ${SECONDS} s per run, ${ROUNDS} rounds, median; ${Math.round((Date.now() - started) / 1000)} s in all.\n`,
);
report.line("```");
report.line(budgetTable(verdicts));
report.line("```");
report.line(
  `\nOther processes took ${Math.round(otherWork * 100)} % of the machine's CPU during the rounds (load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(", ")}).`,
);
report.finish();
if (otherWork > BUSY_MACHINE)
  console.log(
    `The machine was busy with other work (${Math.round(otherWork * 100)} % of its CPU): every page's CPU ratio runs high on such a machine, so an OVER here may be the machine's, not the page's.`,
  );
for (const v of verdicts.filter((v) => v.over))
  console.log(
    `Page budget exceeded: ${v.page}, ${MEASURE_LABELS[v.measure]} ${v.value.toFixed(2)} > ${ceilingOf(v.limit).toFixed(2)} (budget ${v.limit.budget} + ${Math.round(v.limit.margin * 100)} %); a reviewed change of budgets/reader-pages.json raises it`,
  );
const pageCount = Object.keys(budgets.pages).length;
console.log(`${pageCount - over.length} passed, ${over.length} failed`);
process.exitCode = over.length ? 1 : 0;
