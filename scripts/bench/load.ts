/**
 * The benchmark's load generator and ceiling, each in a process of its own, so neither shares an event
 * loop with what it measures: wrk (Debian's /usr/bin/wrk) or, when it is missing, autocannon's CLI.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { request } from "node:http";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../harness/test-server";
import type { PacedResult } from "./paced-load";

/** `requests`: how many the run completed. */
export type LoadResult = { rps: number; p99: number; errors: number; requests: number };
/** `script`: a wrk Lua script choosing each request (the crawl); wrk only. */
export type LoadOptions = { connections: number; seconds: number; headers: Record<string, string>; script?: string };

const WRK = process.env.WRK_PATH ?? "/usr/bin/wrk";
/** How long past its duration a load generator may run before it is killed. */
const OVERRUN_MS = 20_000;
const PACED_LOAD_NICENESS = -5;

export const loadGeneratorName = existsSync(WRK) ? `wrk (${WRK})` : "autocannon (child process)";

/** `priority`: the child's niceness, where this process may set it (a negative one needs root). */
function runBounded(command: string, args: string[], limitMs: number, priority?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    if (priority !== undefined && child.pid) trySetPriority(child.pid, priority);
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} exited with ${code}:\n${out}`));
    });
  });
}

const WRK_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** wrk's "Requests/sec", its 99th latency percentile (--latency) and its error lines. */
export function parseWrk(out: string): LoadResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  if (!Number.isFinite(rps) || !p99) throw new Error(`cannot read wrk's output:\n${out}`);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  return { rps, p99: Number(p99[1]) * WRK_UNITS_MS[p99[2]!]!, errors, requests };
}

/** Loads `url` for `seconds` from a separate process and reports its throughput and p99 latency. */
export async function loadTest(
  url: string,
  { connections, seconds, headers, script }: LoadOptions,
): Promise<LoadResult> {
  const limit = seconds * 1000 + OVERRUN_MS;
  if (existsSync(WRK)) {
    const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
    const threads = String(Math.min(2, connections));
    return parseWrk(
      await runBounded(
        WRK,
        [
          "-t",
          threads,
          "-c",
          String(connections),
          "-d",
          `${seconds}s`,
          "--timeout",
          "30s",
          "--latency",
          ...(script ? ["-s", script] : []),
          ...headerArgs,
          url,
        ],
        limit,
      ),
    );
  }
  if (script) throw new Error("a scripted load (the crawl) needs wrk: apt-get install wrk");
  const cli = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
  // autocannon reads a header as `name=value`.
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}=${value}`]);
  const out = await runBounded(
    process.execPath,
    [cli, "--json", "-c", String(connections), "-d", String(seconds), ...headerArgs, url],
    limit,
  );
  const result = JSON.parse(out.slice(out.indexOf("{"))) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  };
}

/** Sets a process's niceness; false where this process may not. */
export function trySetPriority(pid: number, niceness: number): boolean {
  try {
    setPriority(pid, niceness);
    return true;
  } catch {
    return false;
  }
}

/**
 * Readers arriving at `rate` a second whatever the server's pace, from a process of its own
 * (paced-load.ts), ahead of the server in the CPU's queue where it may be, so its own lateness is not
 * counted as the server's.
 */
export async function pacedLoadTest(
  url: string,
  rate: number,
  { connections, seconds, headers }: LoadOptions,
): Promise<PacedResult> {
  const out = await runBounded(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/bench/paced-load.ts",
      url,
      String(rate),
      String(seconds),
      String(connections),
      JSON.stringify(headers),
    ],
    seconds * 1000 + OVERRUN_MS,
    PACED_LOAD_NICENESS,
  );
  return JSON.parse(out.trim().split("\n").at(-1)!) as PacedResult;
}

/** A response as a server sent it: its status, its headers but those of the connection, its body still encoded. */
export type ServedResponse = { status: number; headers: Record<string, string | string[]>; body: Buffer };

/** Headers that belong to the connection or the moment, which node:http writes itself. */
const CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** What `url` answers to a GET with `headers`, as it came over the wire (so the ceiling can send the same). */
export function servedResponse(url: string, headers: Record<string, string>): Promise<ServedResponse> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () => {
        const kept = Object.entries(response.headers).filter(
          ([name, value]) => value !== undefined && !CONNECTION_HEADERS.has(name),
        );
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(kept) as ServedResponse["headers"],
          body: Buffer.concat(chunks),
        });
      });
    })
      .once("error", reject)
      .end();
  });
}

type HelperServer = { url: string; pid: number; stop: () => Promise<void> };

/** The ceiling server (ceiling.ts) in its own process, sending `response` on `port` (a free one by default); stop() ends it. */
export async function startCeiling(response: ServedResponse, port?: number): Promise<HelperServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-ceiling-"));
  const file = path.join(dir, "response.json");
  writeFileSync(file, JSON.stringify({ ...response, body: response.body.toString("base64") }));
  return startHelperServer("scripts/bench/ceiling.ts", [file], port, () =>
    rmSync(dir, { recursive: true, force: true }),
  );
}

/** The budget's reference server (reference.ts) in its own process on `port` (a free one by default). */
export function startReference(port?: number): Promise<HelperServer> {
  return startHelperServer("scripts/bench/reference.ts", [], port);
}

/** Runs `script` with `args` and the port, until it prints "ready". */
async function startHelperServer(
  script: string,
  args: string[],
  port: number | undefined,
  cleanUp = () => {},
): Promise<HelperServer> {
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args, String(listenOn)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 30 s`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", () => reject(new Error(`${script} exited before it was ready`)));
  });
  return {
    url: `http://127.0.0.1:${listenOn}/`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      cleanUp();
    },
  };
}

/**
 * A wrk script walking `paths` in order, each of wrk's threads from its own share, so no path is asked
 * twice until every path has been (a crawler walking the archive: every page a cache miss).
 */
export function crawlScript(paths: string[], threads: number): string {
  const share = Math.floor(paths.length / threads);
  return [
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(",")}}`,
    "local next_thread = 0",
    'function setup(thread) thread:set("first", next_thread * ' + share + "); next_thread = next_thread + 1 end",
    "local i = 0",
    'request = function() local k = (first + i) % #paths + 1; i = i + 1; return wrk.format("GET", paths[k]) end',
    "",
  ].join("\n");
}
