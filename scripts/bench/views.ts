/**
 * npm run bench:views: what counting costs readers (decisions 039 and 042). The production
 * server, one worker and the views process (VIEWS_PORT, which nginx sends views to), on a temporary site
 * (SQLite, or TEST_DATABASE=postgres) with 100 stories; `--on-worker`: no views process, the views go to
 * the worker that serves the pages, as without nginx; `--bare`: the views go to a process that answers
 * each with 200 and counts nothing (view-sink.ts), what the load itself costs this machine's pages.
 * Readers arrive at 300 a second on a story's page from a process of their own (paced-load.ts): a
 * window of 10 s that warms the server, then twelve, every other one while 1,000 views a second
 * arrive from another process (view-generator.ts): a minute of views in all, each from a new browser
 * behind its own address. Windows of each kind alternate, so the machine's drift falls on both. Prints each window's page
 * p50/p99, the p99 with views ÷ without (target within 10%), whether every view was counted exactly
 * once, and the database's growth per million views: the same day, and once the day's marks are
 * pruned (what stays: rows per hour or day, story, source and device).
 */
import { statSync } from "node:fs";
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { cpuTimeMs, machineCpuMs, nodeChildPids } from "../../harness/processes";
import { freePort, startTestServer } from "../../harness/test-server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { pruneViews } from "~/server/visits/visits.server";
import { createTestArticle } from "../../harness/articles";
import { ensureBuild } from "../ensure-build";
import { pacedLoadTest } from "./load";
import type { PacedResult } from "./paced-load";

type ViewsResult = { sent: number; ok: number; other: number; errors: number };

const { values: flags } = parseArgs({
  options: {
    "view-rate": { type: "string" },
    "reader-rate": { type: "string" },
    "on-worker": { type: "boolean" },
    bare: { type: "boolean" },
  },
  strict: true,
});
const VIEW_RATE = Number(flags["view-rate"] ?? 1_000);
const READER_RATE = Number(flags["reader-rate"] ?? 300);
const WINDOW_S = 10;
/** After one window of readers alone that warms the server and is not counted: a minute of views in all. */
const WINDOWS = 12;
const STORIES = 100;
const LOAD = { connections: 32, seconds: WINDOW_S, headers: { "accept-encoding": "br, gzip" } };

/** view-sink.ts on a free port, once it listens. */
async function startSink(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/view-sink.ts", String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the view sink exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

function viewsFrom(target: string, site: string, ids: string[], seconds: number, first: number): Promise<ViewsResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/bench/view-generator.ts",
        target,
        site,
        String(VIEW_RATE),
        String(seconds),
        ids.join(","),
        String(first),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as ViewsResult)
        : reject(new Error(`the view generator exited with ${code}`)),
    );
  });
}

/** The database's size on disk: SQLite's file and its write-ahead log once checkpointed, or PostgreSQL's database; `compact` vacuums first. */
async function databaseBytes(db: DB, url: string, compact = false): Promise<number> {
  if (dialectName(db) === "postgres") {
    if (compact) await sql`vacuum full`.execute(db);
    const { rows } = await sql<{ size: string }>`select pg_database_size(current_database()) as size`.execute(db);
    return Number(rows[0]!.size);
  }
  if (compact) await sql`vacuum`.execute(db);
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return size(url) + size(`${url}-wal`);
}

/** Views counted in the daily figures, and on the stories themselves. */
const counted = async (db: DB) => ({
  daily: Number(
    (
      await db
        .selectFrom("stats_daily")
        .select((eb) => eb.fn.sum<number>("views").as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  ),
  stories: Number(
    (
      await db
        .selectFrom("news")
        .select((eb) => eb.fn.sum<number>("visits").as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  ),
});
/** The middle value; of an even count, the mean of the two middle ones. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

ensureBuild();
const viewsPort = flags["on-worker"] || flags.bare ? undefined : await freePort();
const server = await startTestServer({
  TRUST_PROXY: "loopback",
  ...(viewsPort ? { VIEWS_PORT: String(viewsPort), LOG_LEVEL: "info" } : { LOG_LEVEL: "error" }),
});
const sink = flags.bare ? await startSink() : undefined;
const viewsUrl = sink?.url ?? (viewsPort ? `http://127.0.0.1:${viewsPort}` : server.url);
/** The primary, its worker and its views process, or the one process. */
const serverCpuMs = () => [server.pid, ...nodeChildPids(server.pid)].reduce((sum, pid) => sum + cpuTimeMs(pid), 0);
const db = openDatabase(server.env.DATABASE_URL);
try {
  const ids: string[] = [];
  for (let i = 0; i < STORIES; i++)
    ids.push((await createTestArticle(db, { title: `خبر رقم ${i + 1} للقياس`, content: "نص الخبر ".repeat(150) })).id);
  const page = (await fetch(`${server.url}/news/${ids[0]}`)).url;
  const sizeBefore = await databaseBytes(db, server.env.DATABASE_URL, true);

  type Window = { views: boolean; readers: PacedResult; sent?: ViewsResult; serverCpu: number; busyCores: number };
  const windows: Window[] = [];
  await pacedLoadTest(page, READER_RATE, LOAD);
  for (let i = 0; i < WINDOWS; i++) {
    const views = i % 2 === 1;
    const cpu = serverCpuMs();
    const machine = machineCpuMs().busy;
    const started = performance.now();
    const [readers, sent] = await Promise.all([
      pacedLoadTest(page, READER_RATE, LOAD),
      views ? viewsFrom(viewsUrl, server.url, ids, WINDOW_S, i * VIEW_RATE * WINDOW_S) : undefined,
    ]);
    const elapsed = performance.now() - started;
    windows.push({
      views,
      readers,
      sent,
      serverCpu: (serverCpuMs() - cpu) / elapsed,
      busyCores: (machineCpuMs().busy - machine) / elapsed,
    });
  }

  const accepted = windows.reduce((sum, w) => sum + (w.sent?.ok ?? 0), 0);
  const sent = windows.reduce((sum, w) => sum + (w.sent?.sent ?? 0), 0);
  const failed = windows.reduce((sum, w) => sum + (w.sent ? w.sent.other + w.sent.errors : 0), 0);
  // Counted once every buffered view is written: each process writes its buffer every second.
  const deadline = Date.now() + 30_000;
  let total = await counted(db);
  while (!sink && (total.daily < accepted || total.stories < accepted) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    total = await counted(db);
  }
  const sizeAfter = await databaseBytes(db, server.env.DATABASE_URL);
  // Two days on, what the bound and the "now" panel needed is pruned; the hourly and daily figures stay.
  await pruneViews(db, new Date(Date.now() + 2 * 86_400_000));
  const sizeKept = await databaseBytes(db, server.env.DATABASE_URL, true);

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    sink
      ? "Views to a process that answers each and counts nothing (--bare), pages from one worker"
      : viewsPort
        ? "Views to the views process (VIEWS_PORT), pages from one worker"
        : "Views and pages on one worker (no views process)",
  );
  console.log(
    `Readers: ${READER_RATE} a second on ${decodeURI(page.replace(server.url, ""))}, ${LOAD.connections} connections; views: ${VIEW_RATE} a second over ${STORIES} stories, every other window of ${WINDOW_S} s`,
  );
  console.log(
    `| window | views | page p50 | page p99 | page p99.9 | load generator's lateness, p99 | server CPU, cores | machine busy, cores |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|`);
  windows.forEach((w, i) => {
    console.log(
      `| ${i + 1} | ${w.sent ? `${w.sent.ok} answered 200` : "none"} | ${ms(w.readers.p50)} | ${ms(w.readers.p99)} | ${ms(w.readers.p999)} | ${ms(w.readers.lagP99)} | ${w.serverCpu.toFixed(2)} | ${w.busyCores.toFixed(2)} |`,
    );
  });
  const without = median(windows.filter((w) => !w.views).map((w) => w.readers.p99));
  const withViews = median(windows.filter((w) => w.views).map((w) => w.readers.p99));
  console.log(
    `Page p99, median of the windows: without views ${ms(without)}, with ${ms(withViews)}: ${((withViews / without - 1) * 100).toFixed(0)}% (target within 10%)`,
  );
  const exact = total.daily === accepted && total.stories === accepted;
  console.log(
    `Views: ${sent} sent, ${accepted} answered 200, ${failed} not; counted ${total.daily} in the daily figures and ${total.stories} on the stories${exact ? ": every one, once" : ": NOT exact"}`,
  );
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const perMillion = (size: number) =>
    ((((size - sizeBefore) / Math.max(1, total.daily)) * 1e6) / 1024 / 1024).toFixed(0);
  console.log(
    `Database (${dialectName(db)}): ${mb(sizeBefore)} MB before; ${mb(sizeAfter)} MB the same day, ${perMillion(sizeAfter)} MB per million views (each view's marks, allowance and live row); ${mb(sizeKept)} MB once those are pruned, ${perMillion(sizeKept)} MB per million views (rows per hour or day, story, source and device)`,
  );
} finally {
  sink?.stop();
  await db.destroy();
  await server.stop();
}
