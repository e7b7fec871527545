/**
 * npm run bench:push: one breaking story sent to 100,000 subscriptions (decision 037). The
 * production server, with a worker per core and the sender process as `npm start` runs them (`--workers N`), on a temporary site
 * (SQLite, or TEST_DATABASE=postgres) delivers to
 * harness/push-service.ts running in another process, which checks the VAPID JWT and decrypts every
 * 100th message. Prints the wall time from publishing to the last counted outcome (target ≤ 60 s),
 * deliveries per second, the CPU time each process and thread used meanwhile, the workers' RSS each second, and a
 * reader page's p99 before the send and during it, readers arriving at 300 a second from another process
 * (scripts/bench/paced-load.ts).
 *
 * `-- 20000` sends to that many; `-- --reader-rate 100` has readers arrive at that pace, `max` as fast
 * as the server answers (wrk: what the send takes from a saturated server); `-- --cpu-prof` profiles the server's threads during the send alone
 * (no reader load) and prints where their time went.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { signedInAs } from "../../harness/accounts";
import { cpuTimeMs, machineCpuMs, nodeChildPids, residentMemory, threadCpuTimesMs } from "../../harness/processes";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestArticle, publishForm } from "../../harness/articles";
import { ensureBuild } from "../ensure-build";
import { profileLines, readProfiles, summarizeProfile, type ProfileNode } from "./cpu-profile";
import { loadGeneratorName, loadTest, pacedLoadTest, trySetPriority } from "./load";

const { values: flags, positionals } = parseArgs({
  options: { "cpu-prof": { type: "boolean" }, "reader-rate": { type: "string" }, workers: { type: "string" } },
  allowPositionals: true,
  strict: true,
});
const SUBSCRIPTIONS = Number(positionals[0] ?? 100_000);
const WORKERS = Number(flags.workers ?? availableParallelism());
const READER_RATE = flags["reader-rate"] === "max" ? "max" : Number(flags["reader-rate"] ?? 300);
if (READER_RATE !== "max" && !(READER_RATE > 0))
  throw new Error("--reader-rate takes a number of requests a second, or max");
/** Readers are measured for 20 s before the send, the send's first 30 s, and 20 s after it. */
const QUIET_S = 20;
const SENDING_S = 30;
const LOAD = { connections: READER_RATE === "max" ? 8 : 32, headers: { "accept-encoding": "br, gzip" } };
/** A window's readers, and the machine meanwhile: its cores' busy time and the time its host took from them, in cores. */
type Readers = {
  rps: number;
  p50?: number;
  p99: number;
  p999?: number;
  errors: number;
  lagP99?: number;
  busyCores: number;
  stealCores: number;
};
async function readers(page: string, seconds: number): Promise<Readers> {
  const machineBefore = machineCpuMs();
  const started = performance.now();
  const result =
    READER_RATE === "max"
      ? await loadTest(page, { ...LOAD, seconds })
      : await pacedLoadTest(page, READER_RATE, { ...LOAD, seconds });
  const machine = machineCpuMs();
  const elapsed = performance.now() - started;
  const cores = {
    busyCores: (machine.busy - machineBefore.busy) / elapsed,
    stealCores: (machine.steal - machineBefore.steal) / elapsed,
  };
  return "answered" in result ? { ...result, rps: result.answered / seconds, ...cores } : { ...result, ...cores };
}
const MB = 1024 * 1024;
const PUSH_SERVICE_NICENESS = 10;

/** Where the sender's time goes: the encryption, the HTTP client and sockets, the database, the rest. */
function category(stack: ProfileNode[]): string {
  const own = stack[stack.length - 1]!.callFrame;
  const urls = stack.map((node) => node.callFrame.url);
  if (urls.some((url) => /node_modules\/(web-push|http_ece)\//.test(url))) return "web-push (encryption, VAPID)";
  if (urls.some((url) => /node_modules\/(pg|pg-protocol|pg-pool)\//.test(url))) return "PostgreSQL client";
  if (
    urls.some((url) => /node_modules\/undici|node:internal\/deps\/undici|^node:(_http|http|https|net|_tls)/.test(url))
  )
    return "HTTP client and sockets";
  if (
    (/^(run|all|get|iterate|prepare|exec)$/.test(own.functionName) &&
      (own.url === "" || own.url.endsWith("build/server/index.js"))) ||
    urls.some((url) => /better-sqlite3/.test(url))
  )
    return "SQLite";
  if (urls.some((url) => /node_modules\/kysely\//.test(url))) return "Kysely (query building)";
  if (urls.some((url) => /node:internal\/worker|worker_threads/.test(url))) return "messages between threads";
  return "other JavaScript";
}

ensureBuild();
const service = spawn(process.execPath, ["--import", "tsx", "harness/push-service.ts", "100"], {
  stdio: ["ignore", "pipe", "inherit"],
});
// The push service stands in for one on the internet: on this machine it yields to the readers' pages as the delivery threads do.
trySetPriority(service.pid!, PUSH_SERVICE_NICENESS);
const first = await new Promise<string>((resolve) => createInterface({ input: service.stdout! }).once("line", resolve));
const push = JSON.parse(first) as { url: string; keys: { p256dh: string; auth: string } };

const profileDir = flags["cpu-prof"] ? mkdtempSync(path.join(tmpdir(), "akhbar-push-profile-")) : undefined;
let server: TestServer | undefined;
let db: DB | undefined;
try {
  server = await startTestServer(
    {
      SCHEDULER_INTERVAL_MS: "1000",
      TEST_LOOPBACK_PUSH: "1",
      WORKERS: String(WORKERS),
      ...(WORKERS === 1 ? { LOG_LEVEL: "error" } : {}),
    },
    "node",
    profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  );
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
  const reader = await createTestArticle(db, {
    title: "خبر يقرؤه القراء أثناء الإرسال",
    content: "نص الخبر ".repeat(200),
  });
  // The article at its canonical address: `/news/{id}` answers 301 to it.
  const page = (await fetch(`${server.url}/news/${reader.id}`)).url;
  const editor = await signedInAs(db, server.site, {
    email: "desk@example.com",
    username: "مكتب التحرير",
    role: "editor",
  });

  const quiet = profileDir ? undefined : await readers(page, QUIET_S);

  const processes = WORKERS > 1 ? [server.pid, ...nodeChildPids(server.pid)] : [server.pid];
  const sender = server.senderPid();
  const nameOf = (pid: number) =>
    pid === server!.pid ? (WORKERS > 1 ? "primary" : "server") : pid === sender ? `sender ${pid}` : `worker ${pid}`;
  const rss: number[][] = [];
  // Each thread's CPU time as last seen: a thread that ends before the send is counted (the delivery thread does) keeps its last sample.
  const threadsOf = () =>
    new Map(
      processes.flatMap((pid) => [...threadCpuTimesMs(pid)].map(([tid, thread]) => [tid, { ...thread, pid }] as const)),
    );
  const threadsBefore = threadsOf();
  const threadsSeen = new Map(threadsBefore);
  const sample = () => {
    rss.push(processes.map(residentMemory));
    for (const [tid, thread] of threadsOf()) threadsSeen.set(tid, thread);
  };
  sample();
  const sampler = setInterval(sample, 1000);
  const serverCpu = () => processes.reduce((sum, pid) => sum + cpuTimeMs(pid), 0);
  const cpuBefore = { server: serverCpu(), service: cpuTimeMs(service.pid!) };
  const started = performance.now();
  const response = await fetch(`${server.url}/api/news`, {
    method: "POST",
    body: publishForm("عاجل: خبر إلى مئة ألف مشترك", { category: "breaking", confirmAlert: "on" }),
    headers: { cookie: editor, origin: server.url },
  });
  if (response.status !== 201) throw new Error(`publishing gave ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  const during = profileDir ? undefined : readers(page, SENDING_S);
  let alert;
  for (;;) {
    alert = await db.selectFrom("push_alerts").selectAll().where("article_id", "=", id).executeTakeFirst();
    const done = alert ? Number(alert.delivered) + Number(alert.failed) + Number(alert.removed) : 0;
    if (alert?.payload && done >= Number(alert.sent)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = {
    server: (serverCpu() - cpuBefore.server) / 1000,
    service: (cpuTimeMs(service.pid!) - cpuBefore.service) / 1000,
  };
  clearInterval(sampler);
  sample();
  const loaded = await during;
  const after = profileDir ? undefined : await readers(page, QUIET_S);
  const stats = (await (await fetch(`${push.url}/stats`)).json()) as { accepted: number; rejected: string[] };

  console.log(
    `| subscriptions | sent | delivered | failed | removed | wall time | deliveries/s | push service accepted | rejected (JWT or payload) |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  console.log(
    `| ${SUBSCRIPTIONS} | ${alert!.sent} | ${alert!.delivered} | ${alert!.failed} | ${alert!.removed} | ${seconds.toFixed(1)} s | ${(Number(alert!.delivered) / seconds).toFixed(0)} | ${stats.accepted} | ${stats.rejected.length} |`,
  );
  console.log(
    `CPU time during the send: the server's ${processes.length} process${processes.length > 1 ? "es" : ""} ${cpu.server.toFixed(1)} s (${((cpu.server / seconds) * 100).toFixed(0)}% of a core), push service ${cpu.service.toFixed(1)} s (${((cpu.service / seconds) * 100).toFixed(0)}%)`,
  );
  const busyThreads = [...threadsSeen]
    .map(([tid, thread]) => ({
      tid,
      name: `${nameOf(thread.pid)} ${tid === thread.pid ? "main" : thread.name}`,
      seconds: (thread.ms - (threadsBefore.get(tid)?.ms ?? 0)) / 1000,
    }))
    .filter((thread) => thread.seconds >= 0.5)
    .sort((a, b) => b.seconds - a.seconds);
  console.log(
    `Server threads' CPU time during the send: ${busyThreads.map((thread) => `${thread.name} (${thread.tid}) ${thread.seconds.toFixed(1)} s`).join(", ")}`,
  );
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  processes.forEach((pid, i) => {
    const each = rss.map((sampled) => sampled[i]!);
    const half = each.slice(Math.floor(each.length / 2));
    const name = nameOf(pid);
    console.log(`${name} RSS each second (MB): ${each.map(mb).join(" ")}`);
    console.log(
      `${name} RSS: ${mb(each[0]!)} MB before, peak ${mb(Math.max(...each))} MB, second half of the send ${mb(Math.min(...half))}–${mb(Math.max(...half))} MB, at the end ${mb(each.at(-1)!)} MB`,
    );
  });
  if (quiet && loaded && after) {
    const ms = (value: number | undefined) => (value === undefined ? "–" : `${value.toFixed(1)} ms`);
    console.log(
      `Readers: ${READER_RATE === "max" ? `as fast as the server answers, ${loadGeneratorName}` : `${READER_RATE} a second (paced-load.ts)`}, ${LOAD.connections} connections, ${QUIET_S} s before the send, its first ${SENDING_S} s, ${QUIET_S} s after it, on ${page.replace(server.url, "")}`,
    );
    console.log(
      `| reader page | req/s | p50 | p99 | p99.9 | errors | load generator's own lateness, p99 | machine busy, cores | taken by the host, cores |`,
    );
    console.log(`|---|---|---|---|---|---|---|---|---|`);
    for (const [name, result] of [
      ["before the send", quiet],
      ["during the send", loaded],
      ["after the send", after],
    ] as const) {
      console.log(
        `| ${name} | ${result.rps.toFixed(0)} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.p999)} | ${result.errors} | ${ms(result.lagP99)} | ${result.busyCores.toFixed(2)} | ${result.stealCores.toFixed(2)} |`,
      );
    }
    console.log(
      `p99 during the send ÷ before: ${(loaded.p99 / quiet.p99).toFixed(2)}, ÷ after: ${(loaded.p99 / after.p99).toFixed(2)}${seconds < SENDING_S ? ` (the send ended after ${seconds.toFixed(1)} s, before the load did)` : ""}`,
    );
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
