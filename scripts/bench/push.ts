/**
 * npm run bench:push: one breaking story sent to 100,000 subscriptions (issue 35, decision 037). The
 * production server (one process) on a temporary site (SQLite, or TEST_DATABASE=postgres) delivers to
 * harness/push-service.ts running in another process, which checks the VAPID JWT and decrypts every
 * 100th message. Prints the wall time from publishing to the last counted outcome (target ≤ 60 s),
 * deliveries per second, the CPU time each process used meanwhile, the server's RSS each second, and a
 * reader page's p99 (wrk in another process, scripts/bench/load.ts) before the send and during it.
 *
 * `-- 20000` sends to that many; `-- --reader-rate 300` has readers arrive at that many a second;
 * `-- --cpu-prof` profiles the server's threads during the send alone
 * (no reader load) and prints where their time went.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { signedInAs } from "../../harness/accounts";
import { cpuTimeMs, residentMemory, threadCpuTimesMs } from "../../harness/processes";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestArticle, publishForm } from "../../tests/support/articles";
import { ensureBuild } from "../ensure-build";
import { profileLines, readProfiles, summarizeProfile, type ProfileNode } from "./cpu-profile";
import { loadGeneratorName, loadTest, type LoadResult } from "./load";

const { values: flags, positionals } = parseArgs({ options: { "cpu-prof": { type: "boolean" }, "reader-rate": { type: "string" } }, allowPositionals: true, strict: true });
const SUBSCRIPTIONS = Number(positionals[0] ?? 100_000);
// Readers as fast as the server answers (wrk), or with `--reader-rate N`, N a second whatever its pace (autocannon).
const READER_RATE = flags["reader-rate"] === undefined ? undefined : Number(flags["reader-rate"]);
const LOAD = { connections: READER_RATE ? 32 : 8, seconds: 15, headers: { "accept-encoding": "br, gzip" }, rate: READER_RATE };
const MB = 1024 * 1024;

/** Where the sender's time goes: the encryption, the HTTP client and sockets, the database, the rest. */
function category(stack: ProfileNode[]): string {
  const own = stack[stack.length - 1]!.callFrame;
  const urls = stack.map((node) => node.callFrame.url);
  if (urls.some((url) => /node_modules\/(web-push|http_ece)\//.test(url))) return "web-push (encryption, VAPID)";
  if (urls.some((url) => /node_modules\/(pg|pg-protocol|pg-pool)\//.test(url))) return "PostgreSQL client";
  if (urls.some((url) => /node_modules\/undici|node:internal\/deps\/undici|^node:(_http|http|https|net|_tls)/.test(url))) return "HTTP client and sockets";
  if ((/^(run|all|get|iterate|prepare|exec)$/.test(own.functionName) && (own.url === "" || own.url.endsWith("build/server/index.js"))) || urls.some((url) => /better-sqlite3/.test(url))) return "SQLite";
  if (urls.some((url) => /node_modules\/kysely\//.test(url))) return "Kysely (query building)";
  if (urls.some((url) => /node:internal\/worker|worker_threads/.test(url))) return "messages between threads";
  return "other JavaScript";
}

ensureBuild();
const service = spawn(process.execPath, ["--import", "tsx", "harness/push-service.ts", "100"], { stdio: ["ignore", "pipe", "inherit"] });
const first = await new Promise<string>((resolve) => createInterface({ input: service.stdout! }).once("line", resolve));
const push = JSON.parse(first) as { url: string; keys: { p256dh: string; auth: string } };

const profileDir = flags["cpu-prof"] ? mkdtempSync(path.join(tmpdir(), "akhbar-push-profile-")) : undefined;
let server: TestServer | undefined;
let db: DB | undefined;
try {
  server = await startTestServer({ LOG_LEVEL: "error", SCHEDULER_INTERVAL_MS: "1000" }, "node", profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
  db = openDatabase(server.env.DATABASE_URL);
  const created = new Date().toISOString();
  for (let start = 0; start < SUBSCRIPTIONS; start += 500) {
    const rows = Array.from({ length: Math.min(500, SUBSCRIPTIONS - start) }, (_, i) => ({
      endpoint: `${push.url}/push/bench${start + i}`,
      p256dh: push.keys.p256dh,
      auth: push.keys.auth,
      categories: "[]",
      created_at: created,
    }));
    await db.insertInto("push_subscriptions").values(rows).execute();
  }
  const reader = await createTestArticle(db, { title: "خبر يقرؤه القراء أثناء الإرسال", content: "نص الخبر ".repeat(200) });
  // The article at its canonical address: `/news/{id}` answers 301 to it.
  const page = (await fetch(`${server.url}/news/${reader.id}`)).url;
  const editor = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });

  const quiet = profileDir ? undefined : await loadTest(page, LOAD);

  const rss: number[] = [residentMemory(server.pid)];
  const pid = server.pid;
  // Each thread's CPU time as last seen: a thread that ends before the send is counted (the delivery thread does) keeps its last sample.
  const threadsBefore = threadCpuTimesMs(pid);
  const threadsSeen = new Map(threadsBefore);
  const sample = () => {
    rss.push(residentMemory(pid));
    for (const [tid, thread] of threadCpuTimesMs(pid)) threadsSeen.set(tid, thread);
  };
  const sampler = setInterval(sample, 1000);
  const cpuBefore = { server: cpuTimeMs(server.pid), service: cpuTimeMs(service.pid!) };
  const started = performance.now();
  const response = await fetch(`${server.url}/api/news`, { method: "POST", body: publishForm("عاجل: خبر إلى مئة ألف مشترك", { category: "breaking", confirmAlert: "on" }), headers: { cookie: editor, origin: server.url } });
  if (response.status !== 201) throw new Error(`publishing gave ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  const during: Promise<LoadResult> | undefined = profileDir ? undefined : loadTest(page, LOAD);
  let alert;
  for (;;) {
    alert = await db.selectFrom("push_alerts").selectAll().where("article_id", "=", id).executeTakeFirst();
    const done = alert ? Number(alert.delivered) + Number(alert.failed) + Number(alert.removed) : 0;
    if (alert?.payload && done >= Number(alert.sent)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = { server: (cpuTimeMs(server.pid) - cpuBefore.server) / 1000, service: (cpuTimeMs(service.pid!) - cpuBefore.service) / 1000 };
  clearInterval(sampler);
  sample();
  const loaded = await during;
  const stats = (await (await fetch(`${push.url}/stats`)).json()) as { accepted: number; rejected: string[] };

  console.log(`| subscriptions | sent | delivered | failed | removed | wall time | deliveries/s | push service accepted | rejected (JWT or payload) |`);
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  console.log(`| ${SUBSCRIPTIONS} | ${alert!.sent} | ${alert!.delivered} | ${alert!.failed} | ${alert!.removed} | ${seconds.toFixed(1)} s | ${(Number(alert!.delivered) / seconds).toFixed(0)} | ${stats.accepted} | ${stats.rejected.length} |`);
  console.log(`CPU time during the send: server ${cpu.server.toFixed(1)} s (${((cpu.server / seconds) * 100).toFixed(0)}% of a core), push service ${cpu.service.toFixed(1)} s (${((cpu.service / seconds) * 100).toFixed(0)}%)`);
  const busyThreads = [...threadsSeen]
    .map(([tid, thread]) => ({ tid, name: tid === pid ? "main" : thread.name, seconds: (thread.ms - (threadsBefore.get(tid)?.ms ?? 0)) / 1000 }))
    .filter((thread) => thread.seconds >= 0.5)
    .sort((a, b) => b.seconds - a.seconds);
  console.log(`Server threads' CPU time during the send: ${busyThreads.map((thread) => `${thread.name} (${thread.tid}) ${thread.seconds.toFixed(1)} s`).join(", ")}`);
  const half = rss.slice(Math.floor(rss.length / 2));
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  console.log(`Server RSS each second (MB): ${rss.map(mb).join(" ")}`);
  console.log(`Server RSS: ${mb(rss[0]!)} MB before, peak ${mb(Math.max(...rss))} MB, second half of the send ${mb(Math.min(...half))}–${mb(Math.max(...half))} MB, at the end ${mb(rss.at(-1)!)} MB`);
  if (quiet && loaded) {
    console.log(`Load generator: ${READER_RATE ? `autocannon at ${READER_RATE} requests a second` : loadGeneratorName}, ${LOAD.connections} connections, ${LOAD.seconds} s, on ${page.replace(server.url, "")}`);
    console.log(`| reader page | req/s | p99 | errors |`);
    console.log(`|---|---|---|---|`);
    console.log(`| without a send | ${quiet.rps.toFixed(0)} | ${quiet.p99.toFixed(1)} ms | ${quiet.errors} |`);
    console.log(`| during the send | ${loaded.rps.toFixed(0)} | ${loaded.p99.toFixed(1)} ms | ${loaded.errors} |`);
    console.log(`p99 during the send ÷ without: ${(loaded.p99 / quiet.p99).toFixed(2)}${seconds < LOAD.seconds ? ` (the send ended after ${seconds.toFixed(1)} s, before the load did)` : ""}`);
  }
  if (stats.rejected.length > 0) console.log(`First rejections: ${stats.rejected.slice(0, 3).join("; ")}`);
} finally {
  await db?.destroy();
  await server?.stop();
  service.kill("SIGTERM");
}
if (profileDir) {
  for (const { thread, profile } of readProfiles(profileDir)) {
    const summary = summarizeProfile(profile, category);
    if (summary.busyMs < 500) continue;
    console.log(`\nthread ${thread}${thread === 0 ? " (main)" : ""}:`);
    for (const line of profileLines(summary)) console.log(line);
  }
  rmSync(profileDir, { recursive: true, force: true });
}
