/**
 * npm run bench: anonymous readers against the production server on a seeded database, with one
 * worker and with every core (WORKERS), page cache off and on, beside a bare node:http server sending
 * the same bytes from memory (the ceiling on this machine). The load generator (wrk, or autocannon's
 * CLI), the server and the ceiling each run in their own processes. Prints requests per second, p99
 * latency and the share of the ceiling per page; each server process's resident memory idle and under
 * load; a crawl of distinct articles (each a cache miss, as a search engine walks the archive); and
 * the JavaScript and CSS the article page sends, gzipped.
 *
 * On SQLite by default (a temporary file); `DATABASE_URL=postgres://… npm run bench` or
 * `npm run bench -- --database postgres://…` runs it on PostgreSQL, in a database it creates on that
 * server and drops at the end. Each process first gets a few seconds of unrecorded load on each page.
 * BENCH_SECONDS (10), BENCH_ARTICLES (10000), BENCH_WORKERS ("1,<cores>").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { isPostgresUrl } from "../../app/server/platform/database-url.server";
import { launchChromium, pageWeight } from "../../harness/page-weight";
import { createPostgresDatabase } from "../../harness/postgres";
import { nodeChildPids, residentMemory } from "../../harness/processes";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { benchArticlePath, seedArticles } from "./data";
import {
  crawlScript,
  loadGeneratorName,
  loadTest,
  servedResponse,
  startCeiling,
  type LoadResult,
  type ServedResponse,
} from "./load";
import { openDatabase } from "../../app/server/db/db.server";
import { writeFileSync } from "node:fs";
import { ensureBuild } from "../ensure-build";
import { benchReport } from "./report";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Unrecorded load on each page before its rows, so no row measures a process still compiling its hot code. */
const WARM_UP_SECONDS = 3;
const CORES = availableParallelism();
const WORKER_COUNTS = [...new Set((process.env.BENCH_WORKERS ?? `1,${CORES}`).split(",").map(Number))];
const HEADERS = { "accept-encoding": "br, gzip" };
/** The one load every row, warm-up and ceiling runs: 50 connections asking for brotli or gzip. */
const load = (url: string, seconds: number, script?: string) =>
  loadTest(url, { connections: CONNECTIONS, seconds, headers: HEADERS, script });
const { values: flags } = parseArgs({
  options: { database: { type: "string" }, write: { type: "boolean" } },
  strict: true,
});
const givenUrl = flags.database ?? process.env.DATABASE_URL;
/** The PostgreSQL server to create the bench's database on; none: a temporary SQLite file. */
const postgresServer = givenUrl && isPostgresUrl(givenUrl) ? givenUrl : undefined;
const ENGINE = postgresServer ? "PostgreSQL" : "SQLite";
const MB = 1024 * 1024;

type Run = LoadResult & { page: string; cache: "off" | "on"; workers: number };
/** The crawl's row: distinct articles in turn, measured against the article page's ceiling. */
const CRAWL = "crawl (distinct articles)";

/** Every published article's path, newest first: what a crawler walks. */
async function articlePaths(url: string): Promise<string[]> {
  const db = openDatabase(url);
  try {
    const rows = await db
      .selectFrom("news")
      .select(["id", "slug"])
      .where("status", "=", "published")
      .orderBy("created_at", "desc")
      .execute();
    return rows.map(benchArticlePath);
  } finally {
    await db.destroy();
  }
}
type Memory = { label: string; idle: number; load: number };

if (WORKER_COUNTS.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error(`BENCH_WORKERS must list worker counts, e.g. 1,${CORES}`);

/** Runs the load while sampling each process's resident memory; returns the load's result and the peaks. */
async function loadSampling(
  url: string,
  pids: number[],
  peaks: Map<number, number>,
  script?: string,
): Promise<LoadResult> {
  const sample = () => pids.forEach((pid) => peaks.set(pid, Math.max(peaks.get(pid) ?? 0, residentMemory(pid))));
  const timer = setInterval(sample, 250);
  try {
    return await load(url, SECONDS, script);
  } finally {
    clearInterval(timer);
  }
}

ensureBuild();
const mediaDir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-media-"));
const sqliteDir = postgresServer ? undefined : mkdtempSync(path.join(tmpdir(), "akhbar-bench-"));
const postgres = postgresServer ? await createPostgresDatabase("akhbar_bench_", postgresServer) : undefined;
const databaseUrl = postgres?.url ?? path.join(sqliteDir!, "bench.db");
const runs: Run[] = [];
const memory: Memory[] = [];
/** Each page as the cache-on server with one worker sent it (a cache hit), for its ceiling to send the same. */
const pagesServed = new Map<string, ServedResponse>();
let budget = { js: 0, css: 0 };
try {
  console.log(`seeding ${ARTICLES} articles on ${ENGINE}…`);
  const { articlePage } = await seedArticles({ DATABASE_URL: databaseUrl, MEDIA_DIR: mediaDir }, ARTICLES);
  const crawl = path.join(mediaDir, "crawl.lua");
  writeFileSync(crawl, crawlScript(await articlePaths(databaseUrl), 2));
  const pages: [string, string][] = [
    ["home", "/"],
    ["category", "/local"],
    ["article", articlePage],
  ];
  for (const cache of ["off", "on"] as const) {
    // One server per worker count, all up at once, measured in turn page by page: a change in the
    // machine's other load then weighs on the worker counts alike.
    const servers: {
      workers: number;
      server: TestServer;
      pids: number[];
      idle: Map<number, number>;
      peaks: Map<number, number>;
    }[] = [];
    try {
      for (const workers of WORKER_COUNTS) {
        const server = await startTestServer({
          DATABASE_URL: databaseUrl,
          MEDIA_DIR: mediaDir,
          WORKERS: String(workers),
          PAGE_CACHE_SECONDS: cache === "on" ? "10" : "0",
          LOG_LEVEL: workers > 1 ? "info" : "error",
        });
        const pids = [server.pid, ...(workers > 1 ? nodeChildPids(server.pid) : [])];
        servers.push({
          workers,
          server,
          pids,
          idle: new Map(pids.map((pid) => [pid, residentMemory(pid)])),
          peaks: new Map(),
        });
      }
      for (const { server } of servers)
        for (const [, route] of pages) await load(`${server.url}${route}`, WARM_UP_SECONDS);
      for (const [page, route] of pages) {
        for (const { workers, server, pids, peaks } of servers) {
          if (cache === "on" && !pagesServed.has(page))
            pagesServed.set(page, await servedResponse(`${server.url}${route}`, HEADERS));
          console.log(`${page}, WORKERS=${workers}, page cache ${cache}…`);
          runs.push({ ...(await loadSampling(`${server.url}${route}`, pids, peaks)), page, cache, workers });
        }
      }
      // A crawler walking the archive: every article a different page, each one a cache miss.
      if (cache === "on") {
        for (const { workers, server, pids, peaks } of servers) {
          console.log(`crawl, WORKERS=${workers}…`);
          runs.push({ ...(await loadSampling(`${server.url}/`, pids, peaks, crawl)), page: CRAWL, cache, workers });
        }
      }
      for (const { workers, pids, idle, peaks } of servers) {
        pids.forEach((pid, i) =>
          memory.push({
            label: `WORKERS=${workers}, cache ${cache}: ${workers === 1 ? "server" : i === 0 ? "primary" : `worker ${i}`}`,
            idle: idle.get(pid) ?? 0,
            load: peaks.get(pid) ?? 0,
          }),
        );
      }
      if (cache === "on") {
        const browser = await launchChromium();
        budget = await pageWeight(browser, servers[0]!.server.url, pages[2]![1]).finally(() => browser.close());
      }
    } finally {
      for (const { server } of servers) await server.stop();
    }
  }
} finally {
  await postgres?.drop();
  if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  rmSync(mediaDir, { recursive: true, force: true });
}

const ceilings = new Map<string, LoadResult>();
for (const [page, served] of pagesServed) {
  console.log(`${page}: ceiling…`);
  const ceiling = await startCeiling(served);
  try {
    await load(ceiling.url, WARM_UP_SECONDS);
    ceilings.set(page, await load(ceiling.url, SECONDS));
  } finally {
    await ceiling.stop();
  }
}

const report = benchReport("npm run bench");
report.line(
  `\n${ENGINE}, ${ARTICLES} articles; ${CONNECTIONS} connections for ${SECONDS} s per row from ${loadGeneratorName}; ${CORES} cores.`,
);
report.line("Ceiling: a bare node:http process sending the same page's bytes, with the same headers, from memory.");
report.line(`Each process first ran ${WARM_UP_SECONDS} s of the same load per page, not recorded.\n`);
report.line("| page | page cache | WORKERS | req/s | p99 ms | of ceiling | errors |");
report.line("|---|---|---:|---:|---:|---:|---:|");
for (const r of runs) {
  const ceiling = ceilings.get(r.page === CRAWL ? "article" : r.page)!;
  report.line(
    `| ${r.page} | ${r.cache} | ${r.workers} | ${Math.round(r.rps)} | ${r.p99.toFixed(1)} | ${((r.rps / ceiling.rps) * 100).toFixed(1)}% | ${r.errors} |`,
  );
}
for (const [page, c] of ceilings)
  report.line(`| ${page}: ceiling | — | 1 | ${Math.round(c.rps)} | ${c.p99.toFixed(1)} | 100% | ${c.errors} |`);

if (WORKER_COUNTS.length > 1) {
  const [one, all] = [WORKER_COUNTS[0]!, WORKER_COUNTS.at(-1)!];
  report.line(`\nThroughput with WORKERS=${all} over WORKERS=${one}:`);
  for (const page of [...pagesServed.keys(), CRAWL]) {
    const ratio = (cache: string) => {
      const rps = (workers: number) =>
        runs.find((r) => r.page === page && r.cache === cache && r.workers === workers)!.rps;
      if (!runs.some((r) => r.page === page && r.cache === cache)) return "—";
      return rps(one) > 0 ? `${(rps(all) / rps(one)).toFixed(2)}×` : "n/a (no answer with one worker)";
    };
    report.line(`  ${page}: uncached ${ratio("off")}, cached ${ratio("on")}`);
  }
}

report.line("\nResident memory per server process, MB (idle after start → peak under load):");
for (const m of memory) report.line(`  ${m.label}: ${(m.idle / MB).toFixed(0)} → ${(m.load / MB).toFixed(0)}`);
report.line(
  `\nArticle page assets: JavaScript ${(budget.js / 1024).toFixed(1)} KB (brotli), CSS ${(budget.css / 1024).toFixed(1)} KB (as Chromium got it).`,
);
report.finish();
