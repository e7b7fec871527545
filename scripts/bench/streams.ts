/**
 * npm run bench:streams: how many idle breaking-news streams one server holds, and its memory then.
 * Starts the production server on a temporary database, opens N streams from this process, reports.
 */
import http from "node:http";
import { readFileSync } from "node:fs";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";

const STREAMS = Number(process.argv[2] ?? 2_000);

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}

ensureBuild();
const server = await startTestServer({
  STREAM_MAX_PER_IP: String(STREAMS + 10),
  STREAM_MAX_TOTAL: String(STREAMS + 10),
});
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const url = new URL("/api/breaking/stream", server.url);
const before = rssOf(server.pid);
const started = performance.now();
const requests: http.ClientRequest[] = [];
let opened = 0;
let failed = 0;
await Promise.all(
  Array.from(
    { length: STREAMS },
    () =>
      new Promise<void>((resolve) => {
        const request = http.get(url, { agent }, (response) => {
          if (response.statusCode === 200) opened++;
          else failed++;
          response.once("data", () => resolve());
          response.once("error", () => resolve());
        });
        request.once("error", () => {
          failed++;
          resolve();
        });
        requests.push(request);
      }),
  ),
);
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 2_000));
const after = rssOf(server.pid);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `| streams asked | open | refused or failed | time to open all | server RSS before | server RSS with all open | per stream |`,
);
console.log(`|---|---|---|---|---|---|---|`);
console.log(
  `| ${STREAMS} | ${opened} | ${failed} | ${seconds.toFixed(2)} s | ${mb(before)} MB | ${mb(after)} MB | ${((after - before) / Math.max(opened, 1) / 1024).toFixed(1)} KB |`,
);
requests.forEach((r) => r.destroy());
await server.stop();
