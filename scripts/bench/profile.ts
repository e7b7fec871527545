/**
 * npm run bench:profile: a CPU profile of one server process (WORKERS=1, page cache off) under wrk on
 * the uncached article page, summarised by where the time goes: React rendering, compression, SQLite,
 * garbage collection, the rest. BENCH_ARTICLES (10000), BENCH_SECONDS (15); `--page /local` for another page;
 * `--keep <file>` keeps the profile there (Chromium's DevTools open it).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../../harness/test-server";
import { profileLines, readProfiles, summarizeProfile, type ProfileNode } from "./cpu-profile";
import { seedArticles } from "./data";
import { loadTest } from "./load";
import { ensureBuild, SERVER_ENTRY } from "../ensure-build";

const { values: flags } = parseArgs({ options: { page: { type: "string" }, keep: { type: "string" } }, strict: true });
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

/** The category of a sampled frame, by its own function and the frames it was called from. */
function category(stack: ProfileNode[]): string {
  const own = stack[stack.length - 1]!.callFrame;
  const urls = stack.map((n) => n.callFrame.url);
  const names = stack.map((n) => n.callFrame.functionName);
  if (urls.some((u) => /node:zlib|compression/.test(u)) || names.some((n) => /brotli|gzip|deflate|zlib/i.test(n)))
    return "compression";
  // better-sqlite3's calls are native: their time is counted in our driver's run(), bundled into the build.
  if (
    (/^(run|all|get|iterate|prepare|exec)$/.test(own.functionName) &&
      (own.url === "" || own.url.endsWith("build/server/index.js"))) ||
    urls.some((u) => /better-sqlite3/.test(u))
  )
    return "SQLite";
  if (urls.some((u) => /node_modules\/(pg|pg-protocol|pg-pool)\//.test(u))) return "PostgreSQL client";
  if (urls.some((u) => /node_modules\/react-dom\//.test(u))) return "React render";
  if (urls.some((u) => /node_modules\/kysely\//.test(u))) return "Kysely (query building)";
  // Before Express: React Router's work starts inside Express's handler call (http/react-router-handler).
  if (urls.some((u) => /node_modules\/(react-router|@react-router)\//.test(u)))
    return "React Router (outside rendering)";
  if (urls.some((u) => /node_modules\/(express|router|body-parser|send|serve-static|finalhandler)\//.test(u)))
    return "Express";
  return "other JavaScript";
}

ensureBuild();
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-profile-"));
try {
  const env = { DATABASE_URL: path.join(dir, "bench.db"), MEDIA_DIR: path.join(dir, "media") };
  console.log(`seeding ${ARTICLES} articles…`);
  const { articlePage } = await seedArticles(env, ARTICLES);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${flags.page ?? articlePage}`;
  const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, SERVER_ENTRY], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      WORKERS: "1",
      PAGE_CACHE_SECONDS: "0",
      DEMO_CONTENT: "off",
      LOG_LEVEL: "error",
      AUTH_SECRET: "profile-secret-profile-secret-0123456789",
    },
    stdio: "inherit",
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (const deadline = Date.now() + 60_000; ;) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const load = await loadTest(url, { connections: 50, seconds: SECONDS, headers: { "accept-encoding": "br, gzip" } });
  child.kill("SIGTERM");
  await exited;
  const [main] = readProfiles(dir);
  if (!main) throw new Error("no profile written");
  if (flags.keep) writeFileSync(flags.keep, JSON.stringify(main.profile));
  console.log(
    `\n${url.replace(/:\d+/, "")}: ${Math.round(load.rps)} req/s, p99 ${load.p99.toFixed(0)} ms under the profiler (50 connections, ${SECONDS} s)`,
  );
  for (const line of profileLines(summarizeProfile(main.profile, category))) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
