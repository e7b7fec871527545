/**
 * npm run bench:memory: does the server give memory back? One server process (WORKERS=1, page cache
 * as configured by default) on a seeded database: a warm-up of mixed load, then the mixed load for
 * 10 minutes, then 1 minute idle, printing RSS and V8's heap after warm-up, at the end of the load and
 * after the idle minute; the target is at most 1.5× the warm-up RSS after idle.
 * Mixed load: wrk in its own process, each request a random pick among the home page, every
 * category, distinct articles (a crawl of the archive), search, the breaking list and the feeds.
 *
 * `npm run bench:memory -- --minutes 2 --idle 20` for a shorter try. BENCH_ARTICLES (3000),
 * BENCH_CONNECTIONS (20); `--database postgres://…` as in `npm run bench`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CATEGORIES, categoryPath } from "../../app/lib/categories";
import { openDatabase } from "../../app/server/db/db.server";
import { isPostgresUrl } from "../../app/server/platform/database-url.server";
import { createPostgresDatabase } from "../../harness/postgres";
import { residentMemory } from "../../harness/processes";
import { startTestServer } from "../../harness/test-server";
import { benchArticlePath, seedArticles } from "./data";
import { parseWrk } from "./load";
import { ensureBuild } from "../ensure-build";
import { benchReport } from "./report";

const { values: flags } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    idle: { type: "string", default: "60" },
    warmup: { type: "string", default: "60" },
    database: { type: "string" },
    write: { type: "boolean" },
  },
  strict: true,
});
const LOAD_SECONDS = Math.round(Number(flags.minutes) * 60);
const IDLE_SECONDS = Number(flags.idle);
const WARMUP_SECONDS = Number(flags.warmup);
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const WRK = process.env.WRK_PATH ?? "/usr/bin/wrk";
const MB = 1024 * 1024;
if (![LOAD_SECONDS, IDLE_SECONDS, WARMUP_SECONDS].every((n) => Number.isFinite(n) && n > 0))
  throw new Error("--minutes, --idle and --warmup take positive numbers");
const givenUrl = flags.database ?? process.env.DATABASE_URL;
const postgresServer = givenUrl && isPostgresUrl(givenUrl) ? givenUrl : undefined;

type Memory = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };

/** A wrk script picking each request among `paths` at random. */
function mixedLoadScript(paths: string[]): string {
  return `local paths = {${paths.map((p) => JSON.stringify(p)).join(",")}}\nrequest = function() return wrk.format("GET", paths[math.random(#paths)]) end\n`;
}

function runWrk(url: string, script: string, seconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      WRK,
      [
        "-t",
        "2",
        "-c",
        String(CONNECTIONS),
        "-d",
        `${seconds}s`,
        "--timeout",
        "30s",
        "--latency",
        "-s",
        script,
        "-H",
        "accept-encoding: br, gzip",
        url,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}:\n${out}`))));
  });
}

const waitFor = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const format = (m: Memory) =>
  `RSS ${(m.rss / MB).toFixed(0)} MB, heap used ${(m.heapUsed / MB).toFixed(0)} of ${(m.heapTotal / MB).toFixed(0)} MB, external ${(m.external / MB).toFixed(0)} MB (array buffers ${(m.arrayBuffers / MB).toFixed(0)})`;

ensureBuild();
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-memory-"));
const postgres = postgresServer ? await createPostgresDatabase("akhbar_bench_memory_", postgresServer) : undefined;
const databaseUrl = postgres?.url ?? path.join(dir, "bench.db");
const probeFile = path.join(dir, "memory.json");
try {
  console.log(`seeding ${ARTICLES} articles…`);
  await seedArticles({ DATABASE_URL: databaseUrl, MEDIA_DIR: path.join(dir, "media") }, ARTICLES);
  const db = openDatabase(databaseUrl);
  const articles = (await db.selectFrom("news").select(["id", "slug"]).execute()).map(benchArticlePath);
  await db.destroy();
  const paths = [
    ...articles,
    ...Array.from({ length: 200 }, () => "/"),
    ...CATEGORIES.flatMap((c) =>
      Array.from({ length: 40 }, (_, i) => `${categoryPath(c)}${i % 4 ? `?page=${(i % 4) + 1}` : ""}`),
    ),
    ...["خبر", "الرياضة", "العالم", "مدينة", "كأس", "اقتصاد"].flatMap((q) =>
      Array.from({ length: 20 }, () => `/search?q=${encodeURIComponent(q)}`),
    ),
    ...Array.from({ length: 50 }, () => "/api/breaking"),
    ...Array.from({ length: 50 }, () => "/rss.xml"),
  ];
  const script = path.join(dir, "mixed.lua");
  writeFileSync(script, mixedLoadScript(paths));

  const server = await startTestServer({
    DATABASE_URL: databaseUrl,
    MEDIA_DIR: path.join(dir, "media"),
    LOG_LEVEL: "error",
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${path.resolve("scripts/bench/memory-probe.mjs")}`.trim(),
    MEMORY_PROBE_FILE: probeFile,
  });
  const memory = (): Memory => ({
    ...(JSON.parse(readFileSync(probeFile, "utf8")) as Memory),
    rss: residentMemory(server.pid),
  });
  try {
    console.log(`warm-up: ${WARMUP_SECONDS} s of mixed load over ${paths.length} addresses…`);
    await runWrk(server.url, script, WARMUP_SECONDS);
    await waitFor(2);
    const warm = memory();
    console.log(`mixed load for ${LOAD_SECONDS} s…`);
    const load = parseWrk(await runWrk(server.url, script, LOAD_SECONDS));
    const loaded = memory();
    console.log(`idle for ${IDLE_SECONDS} s…`);
    await waitFor(IDLE_SECONDS);
    const idle = memory();
    const report = benchReport("npm run bench:memory");
    report.line(
      `\n${postgres ? "PostgreSQL" : "SQLite"}, ${ARTICLES} articles, ${CONNECTIONS} connections; load: ${Math.round(load.rps)} req/s, p99 ${load.p99.toFixed(0)} ms, ${load.errors} errors`,
    );
    report.line(`after warm-up:   ${format(warm)}`);
    report.line(`end of the load: ${format(loaded)}`);
    report.line(`after idle:      ${format(idle)}`);
    report.line(`RSS after idle / after warm-up: ${(idle.rss / warm.rss).toFixed(2)}× (target ≤ 1.5×)`);
    report.finish();
  } finally {
    await server.stop();
  }
} finally {
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
}
