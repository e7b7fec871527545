/**
 * npm run bench:push: one breaking story sent to 100,000 subscriptions (issue 35, decision 037). The
 * production server (one process) on a temporary SQLite site delivers to harness/push-service.ts
 * running in another process, which checks the VAPID JWT and decrypts every 100th message. Prints the
 * wall time from publishing to the last counted outcome (target ≤ 60 s), deliveries per second, the
 * server's RSS each second, and a reader page's p99 without and during the send (scripts/bench/load.ts).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { signedInAs } from "../../harness/accounts";
import { residentMemory } from "../../harness/processes";
import { startTestServer } from "../../harness/test-server";
import { openDatabase } from "~/server/db/db.server";
import { createTestArticle, publishForm } from "../../tests/support/articles";
import { ensureBuild } from "../ensure-build";
import { loadGeneratorName, loadTest } from "./load";

const SUBSCRIPTIONS = Number(process.argv[2] ?? 100_000);
const LOAD = { connections: 8, seconds: 15, headers: { "accept-encoding": "br, gzip" } };
const MB = 1024 * 1024;

ensureBuild();
const service = spawn(process.execPath, ["--import", "tsx", "harness/push-service.ts", "100"], { stdio: ["ignore", "pipe", "inherit"] });
const first = await new Promise<string>((resolve) => createInterface({ input: service.stdout! }).once("line", resolve));
const push = JSON.parse(first) as { url: string; keys: { p256dh: string; auth: string } };

const server = await startTestServer({ LOG_LEVEL: "error", SCHEDULER_INTERVAL_MS: "1000" });
const db = openDatabase(server.env.DATABASE_URL);
try {
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
  const page = `${server.url}/news/${reader.id}`;
  await fetch(page);
  const editor = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });

  const quiet = await loadTest(page, LOAD);

  const rss: number[] = [residentMemory(server.pid)];
  const sampler = setInterval(() => rss.push(residentMemory(server.pid)), 1000);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/news`, { method: "POST", body: publishForm("عاجل: خبر إلى مئة ألف مشترك", { category: "breaking", confirmAlert: "on" }), headers: { cookie: editor, origin: server.url } });
  if (response.status !== 201) throw new Error(`publishing gave ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  const during = loadTest(page, LOAD);
  let alert;
  for (;;) {
    alert = await db.selectFrom("push_alerts").selectAll().where("article_id", "=", id).executeTakeFirst();
    const done = alert ? Number(alert.delivered) + Number(alert.failed) + Number(alert.removed) : 0;
    if (alert?.payload && done >= Number(alert.sent)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const loaded = await during;
  const stats = (await (await fetch(`${push.url}/stats`)).json()) as { accepted: number; rejected: string[] };

  console.log(`Load generator: ${loadGeneratorName}, ${LOAD.connections} connections, ${LOAD.seconds} s, on ${page.replace(server.url, "")}`);
  console.log(`| subscriptions | sent | delivered | failed | removed | wall time | deliveries/s | push service accepted | rejected (JWT or payload) |`);
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  console.log(`| ${SUBSCRIPTIONS} | ${alert!.sent} | ${alert!.delivered} | ${alert!.failed} | ${alert!.removed} | ${seconds.toFixed(1)} s | ${(Number(alert!.delivered) / seconds).toFixed(0)} | ${stats.accepted} | ${stats.rejected.length} |`);
  console.log(`Server RSS each second (MB): ${rss.map((bytes) => (bytes / MB).toFixed(0)).join(" ")}`);
  console.log(`| reader page | req/s | p99 | errors |`);
  console.log(`|---|---|---|---|`);
  console.log(`| without a send | ${quiet.rps.toFixed(0)} | ${quiet.p99.toFixed(1)} ms | ${quiet.errors} |`);
  console.log(`| during the send | ${loaded.rps.toFixed(0)} | ${loaded.p99.toFixed(1)} ms | ${loaded.errors} |`);
  if (stats.rejected.length > 0) console.log(`First rejections: ${stats.rejected.slice(0, 3).join("; ")}`);
} finally {
  await db.destroy();
  await server.stop();
  service.kill("SIGTERM");
}
