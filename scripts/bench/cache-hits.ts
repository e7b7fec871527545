/**
 * npm run bench:cache-hits: a page the cache holds against a bare node:http server sending the same
 * bytes with the same headers (ceiling.ts), the production server with WORKERS=1 and the page cache on,
 * each in its own process, loaded in turn from wrk, BENCH_ROUNDS times: requests per second and CPU per
 * request of each, and their ratios per round (the capacity ratio: node:http's CPU per request ÷ ours). BENCH_ARTICLES (10000), BENCH_SECONDS (5), BENCH_ROUNDS (5),
 * BENCH_PORT (5350: this port and the next), BENCH_PAGE (article; or home, category).
 * `-- --cpu-prof <dir>`: the server writes a V8 CPU profile there when it stops.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cpuTimeMs } from "../../harness/processes";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";
import { seedArticles } from "./data";
import { loadTest, servedResponse, startCeiling } from "./load";
import { benchReport } from "./report";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FIRST_PORT = Number(process.env.BENCH_PORT ?? 5350);
const PAGE = process.env.BENCH_PAGE ?? "article";
const CONNECTIONS = 50;
const HEADERS = { "accept-encoding": "br, gzip" };
const { values: flags } = parseArgs({
  options: { "cpu-prof": { type: "string" }, write: { type: "boolean" } },
  strict: true,
});

type Run = { rps: number; cpuUs: number };

async function measure(pid: number, url: string, seconds: number): Promise<Run> {
  const before = cpuTimeMs(pid);
  const load = await loadTest(url, { connections: CONNECTIONS, seconds, headers: HEADERS });
  if (load.errors > 0) throw new Error(`${url}: ${load.errors} errors`);
  return { rps: load.rps, cpuUs: ((cpuTimeMs(pid) - before) * 1000) / load.requests };
}

ensureBuild();
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-cache-hits-"));
const env = { DATABASE_URL: path.join(dir, "bench.db"), MEDIA_DIR: path.join(dir, "media") };
const rounds: { server: Run; ceiling: Run }[] = [];
let bytes = 0;
try {
  console.log(`seeding ${ARTICLES} articles…`);
  const { articlePage } = await seedArticles(env, ARTICLES);
  const route = { article: articlePage, home: "/", category: "/local" }[PAGE];
  if (!route) throw new Error(`BENCH_PAGE must be article, home or category`);
  const nodeArgs = flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(flags["cpu-prof"])}`] : [];
  const server = await startTestServer(
    { ...env, PORT: String(FIRST_PORT), PAGE_CACHE_SECONDS: "300", LOG_LEVEL: "error" },
    "node",
    nodeArgs,
  );
  try {
    const url = `${server.url}${route}`;
    await loadTest(url, { connections: CONNECTIONS, seconds: 2, headers: HEADERS });
    const served = await servedResponse(url, HEADERS);
    if (served.headers["x-cache"] !== "HIT")
      throw new Error(`${route} is not a cache hit: X-Cache ${String(served.headers["x-cache"])}`);
    bytes = served.body.length;
    const ceiling = await startCeiling(served, FIRST_PORT + 1);
    try {
      await loadTest(ceiling.url, { connections: CONNECTIONS, seconds: 2, headers: HEADERS });
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternated: which of the two goes first changes every round.
        const [first, second] = round % 2 ? [server.pid, ceiling.pid] : [ceiling.pid, server.pid];
        const a = await measure(first, first === server.pid ? url : ceiling.url, SECONDS);
        const b = await measure(second, second === server.pid ? url : ceiling.url, SECONDS);
        const [ours, bare] = first === server.pid ? [a, b] : [b, a];
        rounds.push({ server: ours, ceiling: bare });
        console.log(
          `round ${round}: cache hits ${Math.round(ours.rps)} req/s, node:http ${Math.round(bare.rps)} req/s: ${(ours.rps / bare.rps).toFixed(3)}`,
        );
      }
    } finally {
      await ceiling.stop();
    }
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const report = benchReport("npm run bench:cache-hits");
report.line(
  `\nThe ${PAGE} page (${bytes} bytes, brotli) from the page cache, WORKERS=1, against node:http sending the same response; wrk ${CONNECTIONS} connections × ${SECONDS} s, alternated.\n`,
);
report.line(
  "| round | cache hits req/s | node:http req/s | req/s ratio | cache hits CPU µs/request | node:http CPU µs/request | capacity ratio |",
);
report.line("|---:|---:|---:|---:|---:|---:|---:|");
const capacity = ({ server, ceiling }: (typeof rounds)[number]) => ceiling.cpuUs / server.cpuUs;
rounds.forEach((round, i) => {
  const { server, ceiling } = round;
  report.line(
    `| ${i + 1} | ${Math.round(server.rps)} | ${Math.round(ceiling.rps)} | ${(server.rps / ceiling.rps).toFixed(3)} | ${server.cpuUs.toFixed(1)} | ${ceiling.cpuUs.toFixed(1)} | ${capacity(round).toFixed(3)} |`,
  );
});
report.line(
  `\nMedians: ${median(rounds.map((r) => r.server.rps / r.ceiling.rps)).toFixed(3)} of node:http's requests per second; ${median(rounds.map(capacity)).toFixed(3)} of its capacity (node:http's CPU per request ÷ ours), which other load on the machine moves far less.`,
);
report.finish();
