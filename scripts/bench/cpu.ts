/**
 * npm run bench:cpu: the CPU time one server process spends per request (utime + stime from /proc
 * over a wrk run), WORKERS=1, page cache off: the uncached home, category and article, and a crawl
 * of distinct articles. On a machine others load too, wrk's requests per second move 2× between
 * identical runs; the server's own CPU time per request moves far less.
 *
 * `-- --base <checkout>` measures another checkout (built, with its node_modules) beside this one:
 * the database is seeded once by the base's code, each server runs on its own copy of it (this one
 * migrates its copy forward), and the two are measured in turn, page by page, `BENCH_ROUNDS` times.
 * BENCH_ARTICLES (10000), BENCH_SECONDS (8), BENCH_ROUNDS (2), BENCH_PORT (4150: this port and the next).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../app/server/db/db.server";
import { cpuTimeMs } from "../../harness/processes";
import { benchArticlePath, seedArticles } from "./data";
import { crawlScript } from "./load";
import { ensureBuild } from "../ensure-build";
import { benchReport } from "./report";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 4150);
const CONNECTIONS = 50;
const { values: flags } = parseArgs({
  options: { base: { type: "string" }, write: { type: "boolean" } },
  strict: true,
});

type Checkout = { label: string; dir: string };
type Server = Checkout & { url: string; child: ChildProcess; exited: Promise<unknown> };
type Row = {
  label: string;
  page: string;
  round: number;
  cpuMs: number;
  requests: number;
  rps: number;
  p99: number;
  errors: number;
};

/** wrk at 50 connections: the requests it completed, per second, p99 and errors. */
function runWrk(
  url: string,
  seconds: number,
  script?: string,
  { warmUp = false } = {},
): { requests: number; rps: number; p99: number; errors: number } {
  const args = [
    "-t",
    "2",
    "-c",
    String(CONNECTIONS),
    "-d",
    `${seconds}s`,
    "--latency",
    // Slow answers on a loaded machine still count: the CPU they cost is in the server's time.
    "--timeout",
    "20s",
    "-H",
    "accept-encoding: br, gzip",
  ];
  const out = execFileSync("wrk", [...args, ...(script ? ["-s", script] : []), url], {
    timeout: (seconds + 30) * 1000,
  }).toString();
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  if (warmUp) return { requests, rps, p99: 0, errors };
  if (!requests || !p99) throw new Error(`cannot read wrk's output:\n${out}`);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as "us" | "ms" | "s"];
  return { requests, rps, p99: Number(p99[1]) * unit, errors };
}

/** Seeds with the base's own code when there is a base, so its migrations know the database. */
function seed(databaseUrl: string, mediaDir: string): Promise<{ articleId: string }> {
  if (!flags.base) return seedArticles({ DATABASE_URL: databaseUrl, MEDIA_DIR: mediaDir }, ARTICLES);
  // Checkouts before the benchmarks had their own folder keep the seeding at scripts/bench-data.ts.
  const module = existsSync(path.join(flags.base, "scripts/bench/data.ts"))
    ? "./scripts/bench/data.ts"
    : "./scripts/bench-data.ts";
  const code = `const { seedArticles } = await import(${JSON.stringify(module)}); const r = await seedArticles(${JSON.stringify({ DATABASE_URL: databaseUrl, MEDIA_DIR: mediaDir })}, ${ARTICLES}); console.log("SEEDED " + JSON.stringify(r));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: flags.base,
    maxBuffer: 1 << 24,
  }).toString();
  return Promise.resolve(JSON.parse(/SEEDED (.*)/.exec(out)![1]!) as { articleId: string });
}

async function start(checkout: Checkout, port: number, databaseUrl: string, mediaDir: string): Promise<Server> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: checkout.dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: url,
      WORKERS: "1",
      PAGE_CACHE_SECONDS: "0",
      DEMO_CONTENT: "off",
      LOG_LEVEL: "error",
      DATABASE_URL: databaseUrl,
      MEDIA_DIR: mediaDir,
      AUTH_SECRET: "bench-cpu-secret-bench-cpu-secret-0123",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (const deadline = Date.now() + 90_000; ;) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${checkout.label}: the server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { ...checkout, url, child, exited };
}

ensureBuild();
const checkouts: Checkout[] = [
  ...(flags.base ? [{ label: `base (${path.basename(flags.base)})`, dir: path.resolve(flags.base) }] : []),
  { label: "this checkout", dir: process.cwd() },
];
for (const { dir, label } of checkouts)
  if (!existsSync(path.join(dir, "build/server/index.js")))
    throw new Error(`${label}: no build in ${dir} (npm run build there)`);
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-cpu-"));
const servers: Server[] = [];
const rows: Row[] = [];
try {
  console.log(`seeding ${ARTICLES} articles…`);
  const seededDb = path.join(dir, "seed.db");
  const seededMedia = path.join(dir, "seed-media");
  const { articleId } = await seed(seededDb, seededMedia);
  const db = openDatabase(seededDb);
  const published = await db
    .selectFrom("news")
    .select(["id", "slug"])
    .where("status", "=", "published")
    .orderBy("created_at", "desc")
    .execute();
  const paths = published.map(benchArticlePath);
  const articlePage = benchArticlePath(published.find((row) => row.id === articleId)!);
  await db.destroy();
  const crawl = path.join(dir, "crawl.lua");
  writeFileSync(crawl, crawlScript(paths, 2));
  for (const [i, checkout] of checkouts.entries()) {
    const databaseUrl = path.join(dir, `server-${i}.db`);
    for (const suffix of ["", "-wal", "-shm"])
      if (existsSync(seededDb + suffix)) copyFileSync(seededDb + suffix, databaseUrl + suffix);
    cpSync(seededMedia, path.join(dir, `media-${i}`), { recursive: true });
    servers.push(await start(checkout, FIRST_PORT + i, databaseUrl, path.join(dir, `media-${i}`)));
  }
  const pages: [string, string, string?][] = [
    ["article", articlePage],
    ["home", "/"],
    ["category", "/local"],
    ["crawl", "/", crawl],
  ];
  // A redirect or an error page measured as the page would make every figure wrong.
  for (const server of servers)
    for (const [page, route] of pages) {
      const status = (await fetch(`${server.url}${route}`, { redirect: "manual" })).status;
      if (status !== 200) throw new Error(`${server.label}: ${page} (${route}) answered ${status}, not 200`);
    }
  // Warm-up: the first requests of a cold server may all time out; only the measured runs must answer.
  for (const server of servers)
    for (const [, route, script] of pages) runWrk(`${server.url}${route}`, 3, script, { warmUp: true });
  for (let round = 1; round <= ROUNDS; round++)
    for (const [page, route, script] of pages)
      for (const server of round % 2 ? servers : [...servers].reverse()) {
        const before = cpuTimeMs(server.child.pid!);
        const load = runWrk(`${server.url}${route}`, SECONDS, script);
        const cpuMs = (cpuTimeMs(server.child.pid!) - before) / load.requests;
        rows.push({ label: server.label, page, round, cpuMs, ...load });
        console.log(
          `${page}, ${server.label}, round ${round}: ${cpuMs.toFixed(2)} CPU ms/request, ${Math.round(load.rps)} req/s, p99 ${load.p99.toFixed(0)} ms, ${load.errors} errors`,
        );
      }
} finally {
  for (const server of servers) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
}

const report = benchReport("npm run bench:cpu");
report.line(
  `\nSQLite, ${ARTICLES} articles, WORKERS=1, page cache off, wrk ${CONNECTIONS} connections × ${SECONDS} s, ${ROUNDS} rounds alternated.\n`,
);
report.line(
  `| page | ${checkouts.map((c) => `${c.label}: CPU ms / request`).join(" | ")} |${checkouts.length > 1 ? " capacity |" : ""}`,
);
report.line(`|---|${checkouts.map(() => "---:").join("|")}|${checkouts.length > 1 ? "---:|" : ""}`);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const page of ["article", "home", "category", "crawl"]) {
  const per = checkouts.map((c) => rows.filter((r) => r.page === page && r.label === c.label).map((r) => r.cpuMs));
  const cells = per.map((xs) => xs.map((x) => x.toFixed(2)).join(" / "));
  const capacity = checkouts.length > 1 ? ` ${(mean(per[0]!) / mean(per.at(-1)!)).toFixed(2)}× |` : "";
  report.line(`| ${page} | ${cells.join(" | ")} |${capacity}`);
}
report.finish();
