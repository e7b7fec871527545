/**
 * npm run bench:live [readers] [updates] [moved]: one live story, `readers` (5,000) connected to
 * instance A from a load process of their own (live-readers.ts), an editor posting `updates` (60)
 * over a minute on A; midway `moved` (500) readers hang up and reconnect to instance B with
 * Last-Event-ID. Prints whether every reader got every update once, latency from post to receipt,
 * and A's memory per open stream. Two instances of the production server on one SQLite database.
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { signedInAs } from "../../harness/accounts";
import { startTestSite, type TestServer } from "../../harness/test-server";
import { openDatabase } from "../../app/server/db/db.server";
import { createArticle } from "../../app/server/news/articles-write.server";
import { ensureBuild } from "../ensure-build";

const READERS = Number(process.argv[2] ?? 5_000);
const UPDATES = Number(process.argv[3] ?? 60);
const MOVED = Math.min(READERS, Number(process.argv[4] ?? 500));
const SPAN_MS = Number(process.env.LIVE_SPAN_MS ?? 60_000);

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

ensureBuild();
const limits = { STREAM_MAX_PER_IP: String(READERS + 100), STREAM_MAX_TOTAL: String(READERS + 100), LOG_LEVEL: "warn" };
const site = await startTestSite(2, limits, "sqlite");
const [a, b] = site.servers as [TestServer, TestServer];
const db = openDatabase(site.database.url, 1);
const cookie = await signedInAs(db, a.site, { email: "bench@example.com", username: "مكتب التغطية", role: "editor" });
const { id } = await createArticle(db, {
  title: "تغطية مباشرة للقياس",
  content: "نص",
  category: "local",
  silent: true,
});
await db.destroy();

const desk = async (fields: Record<string, string>) => {
  const response = await fetch(`${a.url}/edit-news/${id}/live`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { cookie },
  });
  if (response.status !== 200) throw new Error(`the desk answered ${response.status}: ${await response.text()}`);
};
const doc = (text: string) =>
  JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
await desk({ intent: "open" });

const load = fork(fileURLToPath(new URL("./live-readers.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"] });
const ask = <T>(command: object, answer: string) =>
  new Promise<T>((resolve) => {
    const listener = (message: { type: string }) => {
      if (message.type !== answer) return;
      load.off("message", listener);
      resolve(message as T);
    };
    load.on("message", listener);
    load.send(command);
  });

const before = rssOf(a.pid);
const started = performance.now();
const opened = await ask<{ open: number; refused: number }>(
  { type: "open", url: `${a.url}/api/news/${id}/live`, count: READERS },
  "opened",
);
const openSeconds = (performance.now() - started) / 1000;
await new Promise((resolve) => setTimeout(resolve, 2_000));
const withAll = rssOf(a.pid);

for (let seq = 1; seq <= UPDATES; seq++) {
  const due = started + openSeconds * 1000 + 2_000 + ((seq - 1) * SPAN_MS) / UPDATES;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  await desk({ intent: "post", body: doc(`تحديث #${seq}@${Date.now()}`) });
  if (seq === Math.floor(UPDATES / 2))
    void ask({ type: "move", url: `${b.url}/api/news/${id}/live`, count: MOVED }, "moved");
}
await new Promise((resolve) => setTimeout(resolve, 3_000));
const report = await ask<{
  readers: number;
  refused: number;
  received: number;
  everyOnce: number;
  duplicates: number;
  firstMedian: number;
  fanOutMedian: number;
  p50: number;
  p99: number;
  max: number;
}>({ type: "report", updates: UPDATES }, "report");
load.kill();
await site.stop();

console.log(
  `| readers | updates | moved to B midway | got every update exactly once | duplicates | receipts | p50 | p99 | max | A's RSS before → with all open | per stream |`,
);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
console.log(
  `| ${opened.open} (refused ${opened.refused}) | ${UPDATES} | ${MOVED} | ${report.everyOnce} | ${report.duplicates} | ${report.received.toLocaleString("en")} | ${report.p50} ms | ${report.p99} ms | ${report.max} ms | ${mb(before)} → ${mb(withAll)} MB | ${((withAll - before) / Math.max(1, opened.open) / 1024).toFixed(1)} KB |`,
);
console.log(
  `(opening ${opened.open} streams took ${openSeconds.toFixed(1)} s; per update, the first reader's receipt came ${report.firstMedian} ms after the post began, the last ${report.fanOutMedian} ms after the first: medians)`,
);
