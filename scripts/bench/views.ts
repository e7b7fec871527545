/**
 * npm run bench:views (issue 36, decision 039): readers load an article page (autocannon at a fixed
 * rate, in its own process) for a minute without views, then for a minute while another process posts
 * 1,000 views a second, each a new browser from its own address. Prints both p99s and their ratio,
 * whether every view was counted exactly (news.visits and the daily figures), and the database's
 * growth per million views. One server process (WORKERS=1); SQLite, or TEST_DATABASE=postgres.
 * `-- --seconds 20 --rate 500` for a shorter run.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { pruneViews } from "~/server/visits/visits.server";
import { createTestArticle } from "../../tests/support/articles";
import { ensureBuild } from "../ensure-build";
import { loadTest } from "./load";

const { values: flags } = parseArgs({ options: { seconds: { type: "string" }, rate: { type: "string" }, "reader-rate": { type: "string" } }, strict: true });
const SECONDS = Number(flags.seconds ?? 60);
const VIEW_RATE = Number(flags.rate ?? 1_000);
const READER_RATE = Number(flags["reader-rate"] ?? 100);
const STORIES = 20;
const LOAD = { connections: 16, seconds: SECONDS, headers: { "accept-encoding": "br, gzip" }, rate: READER_RATE };

function runViews(url: string, ids: string[]): Promise<{ sent: number; ok: number; other: number; errors: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/view-generator.ts", url, String(VIEW_RATE), String(SECONDS), ids.join(",")], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!)) : reject(new Error(`the view generator exited with ${code}`))));
  });
}

/** The database's size in bytes: the SQLite file and its WAL after a checkpoint, or PostgreSQL's; `compact` first gives freed pages back. */
async function databaseBytes(db: DB, file: string, compact = false): Promise<number> {
  if (dialectName(db) === "postgres") {
    if (compact) await sql`vacuum full`.execute(db);
    const { rows } = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return Number(rows[0]!.bytes);
  }
  if (compact) await sql`vacuum`.execute(db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
}

ensureBuild();
let server: TestServer | undefined;
let db: DB | undefined;
try {
  server = await startTestServer({ LOG_LEVEL: "error", TRUST_PROXY: "loopback" });
  db = openDatabase(server.env.DATABASE_URL);
  const ids: string[] = [];
  for (let i = 0; i < STORIES; i++) ids.push((await createTestArticle(db, { title: `خبر يقرؤه القراء ${i + 1}`, content: "نص الخبر ".repeat(200) })).id);
  const page = (await fetch(`${server.url}/news/${ids[0]}`)).url;

  const quiet = await loadTest(page, LOAD);
  const before = await databaseBytes(db, server.env.DATABASE_URL, true);
  const [loaded, views] = await Promise.all([loadTest(page, LOAD), runViews(server.url, ids)]);
  const counted = async () => Number((await db!.selectFrom("news").select((eb) => eb.fn.sum<number>("visits").as("n")).where("id", "in", ids).executeTakeFirstOrThrow()).n);
  const waitStarted = performance.now();
  while ((await counted()) < views.ok && performance.now() - waitStarted < 30_000) await new Promise((resolve) => setTimeout(resolve, 200));
  const settled = performance.now() - waitStarted;
  const visits = await counted();
  const daily = Number((await db.selectFrom("stats_daily").select((eb) => eb.fn.sum<number>("views").as("n")).where("news_id", "in", ids).executeTakeFirstOrThrow()).n);
  const after = await databaseBytes(db, server.env.DATABASE_URL);
  // Two days on, what the bound and the "now" panel needed is pruned; the hourly and daily figures stay.
  await pruneViews(db, new Date(Date.now() + 2 * 86_400_000));
  const kept = await databaseBytes(db, server.env.DATABASE_URL, true);

  console.log(`Engine: ${dialectName(db)}; readers: autocannon at ${READER_RATE} requests a second, ${LOAD.connections} connections, ${SECONDS} s, on ${page.replace(server.url, "")}; views: ${VIEW_RATE} a second for ${SECONDS} s over ${STORIES} stories, each a new browser and address`);
  console.log(`| reader page | req/s | p99 | errors |`);
  console.log(`|---|---|---|---|`);
  console.log(`| without views | ${quiet.rps.toFixed(0)} | ${quiet.p99.toFixed(1)} ms | ${quiet.errors} |`);
  console.log(`| with ${VIEW_RATE} views/s | ${loaded.rps.toFixed(0)} | ${loaded.p99.toFixed(1)} ms | ${loaded.errors} |`);
  console.log(`p99 with views ÷ without: ${(loaded.p99 / quiet.p99).toFixed(2)}`);
  console.log(`Views: ${views.sent} sent in ${views.seconds.toFixed(1)} s, ${views.ok} answered 200, ${views.other} other, ${views.errors} errors; counted ${visits} (news.visits), ${daily} (daily figures), the last written ${(settled / 1000).toFixed(1)} s after the load ended: ${visits === views.ok && daily === views.ok ? "exact" : "NOT EXACT"}`);
  const perMillion = (bytes: number) => ((bytes - before) / Math.max(1, visits)).toFixed(0);
  console.log(`Database: ${(before / 1e6).toFixed(1)} MB before, ${(after / 1e6).toFixed(1)} MB the same day (${perMillion(after)} MB per million views: each view's marks, allowance and live row), ${(kept / 1e6).toFixed(1)} MB once those are pruned (${perMillion(kept)} MB per million views: rows per hour or day, story, source and device)`);
} finally {
  await db?.destroy();
  await server?.stop();
}
