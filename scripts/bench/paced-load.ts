/**
 * Readers arriving at a set pace, in a process of its own: `tsx scripts/bench/paced-load.ts URL RATE
 * SECONDS CONNECTIONS [HEADERS_JSON]` prints one JSON line. Request i is due at i/RATE seconds and its
 * latency runs from then, not from when a free connection sent it, so a stalled server is charged for
 * the readers it kept waiting (wrk2's method). The first second warms the connections and this
 * process's code and is not counted. `lagP99` is this process's own lateness in sending, to tell its
 * noise from the server's.
 */
import http from "node:http";

export type PacedResult = {
  rate: number;
  sent: number;
  answered: number;
  errors: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  lagP99: number;
};

const [url, rateArg, secondsArg, connectionsArg, headersArg] = process.argv.slice(2);
if (!url || !rateArg || !secondsArg || !connectionsArg)
  throw new Error("usage: paced-load.ts URL RATE SECONDS CONNECTIONS [HEADERS_JSON]");
const rate = Number(rateArg);
const warmup = Math.round(rate);
const total = warmup + Math.round(rate * Number(secondsArg));
const headers = headersArg ? (JSON.parse(headersArg) as Record<string, string>) : {};
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connectionsArg) });

const latencies: number[] = [];
const lags: number[] = [];
let errors = 0;
let sent = 0;
let settled = 0;
const start = performance.now();
const due = (i: number) => start + (i * 1000) / rate;

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Requests still unanswered this long after the last was due are counted as errors. */
const GRACE_MS = 10_000;
let finished = false;

function finish(): void {
  if (finished) return;
  finished = true;
  errors += total - settled;
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const result: PacedResult = {
    rate,
    sent: sent - warmup,
    answered: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p999: percentile(latencies, 99.9),
    max: latencies.at(-1) ?? 0,
    lagP99: percentile(lags, 99),
  };
  console.log(JSON.stringify(result));
  agent.destroy();
  process.exit(0);
}

function request(i: number): void {
  const intended = due(i);
  const counted = i >= warmup;
  if (counted) lags.push(performance.now() - intended);
  const settle = (ok: boolean) => {
    if (ok && counted) latencies.push(performance.now() - intended);
    else if (!ok) errors++;
    if (++settled === total) finish();
  };
  const req = http.get(url!, { agent, headers }, (res) => {
    res.on("data", () => {});
    res.on("end", () => settle(res.statusCode === 200));
    res.on("error", () => settle(false));
  });
  req.on("error", () => settle(false));
}

function tick(): void {
  const now = performance.now();
  while (sent < total && due(sent) <= now) request(sent++);
  if (sent < total) setTimeout(tick, Math.max(0, due(sent) - performance.now()));
  else setTimeout(finish, GRACE_MS).unref();
}
tick();
