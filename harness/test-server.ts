import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AuthServer } from "./accounts";
import type { Engine } from "../migrations/engine";
import { nodeChildPids } from "./processes";
import { ROLE_ENV } from "../app/server/site/process-role.server";
import { SERVER_ENTRY } from "../scripts/ensure-build";
import { createEmptyDatabase, type EmptyDatabase } from "./temp-db";

type ServerEnv = Record<string, string> & {
  PORT: string;
  DATABASE_URL: string;
  AUTH_SECRET: string;
  MEDIA_DIR: string;
};

export type TestServer = {
  url: string;
  dir: string;
  pid: number;
  /** With WORKERS > 1 or VIEWS_PORT: the pids of the workers running now that serve the site (the primary is `pid`). */
  workerPids: () => number[];
  /** With VIEWS_PORT: the pid of the views process running now. */
  viewsPid: () => number | undefined;
  /** With WORKERS > 1 or VIEWS_PORT: the pid of the sender process running now. */
  senderPid: () => number | undefined;
  /** Peak resident memory of the server process so far, in bytes (Linux /proc). */
  peakMemory: () => number;
  env: ServerEnv;
  /** Its address and secret, as the account helpers take them. */
  site: AuthServer;
  /** Everything the server printed so far. */
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited and all it printed is read. */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

export type ServerProcess = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * How the server is started: the built entry on Node (SERVER_ENTRY), or `npm start` as an operator runs
 * it (npm, its shell, the build check, then the entry) in a process group of its own, which a test
 * signals whole as systemd or Ctrl-C does.
 */
export type Launch = "node" | "npm start";

/**
 * Spawns the server (production mode, from build/) with `env` added to this process's environment; one
 * process unless `env` sets WORKERS. `nodeArgs` go to Node before the entry (flags NODE_OPTIONS refuses, as --cpu-prof).
 */
export function spawnServer(
  env: Record<string, string>,
  launch: Launch = "node",
  nodeArgs: string[] = [],
): ServerProcess {
  let output = "";
  const fullEnv = { ...process.env, WORKERS: "1", ...env };
  const child =
    launch === "npm start"
      ? spawn("npm", ["start"], { env: fullEnv, stdio: "pipe", detached: true })
      : spawn(process.execPath, [...nodeArgs, SERVER_ENTRY], { env: fullEnv, stdio: "pipe" });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // "close": also after what its children still print on the same pipes.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A server that was to refuse and has not exited by then is serving: it is stopped, and the test fails. */
const REFUSAL_WAIT_MS = 20_000;

/**
 * Starts the real server on a site in `dir`, with `env` over a plain configuration, and expects it to
 * stop before listening with exit status 1 and a message, not a stack trace; resolves with what it printed.
 */
export async function refusedStart(dir: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const server = spawnServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: path.join(dir, "site.db"),
    MEDIA_DIR: path.join(dir, "media"),
    AUTH_SECRET: "config-secret-config-secret-config-secret",
    DEMO_CONTENT: "off",
    LOG_LEVEL: "warn",
    ...env,
  });
  const serving = setTimeout(() => server.child.kill("SIGKILL"), REFUSAL_WAIT_MS);
  const status = await server.exited;
  clearTimeout(serving);
  const output = server.output();
  if (status !== 1 || output.includes("serving") || /\n\s+at /.test(output)) {
    throw new Error(`expected a refusal (exit 1, a message, no stack trace); exit ${status}, printed:\n${output}`);
  }
  return output;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Until the server answers, and with a cluster until its primary reports every worker serving. */
async function waitUntilUp(url: string, child: ChildProcess, log: () => string, cluster: boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      // A server whose BASE_URL names another host sends its pages there (301): it is up all the same.
      const response = await fetch(`${url}/who`, { redirect: "manual" });
      if ((response.ok || response.status === 301) && (!cluster || / are serving: /.test(log()))) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start:\n${log()}`);
}

/**
 * The real production server (build/ must exist) on a free port over a fresh temporary database of the
 * engine under test (createEmptyDatabase), dropped when it stops, unless `extraEnv` names one. One
 * process (WORKERS=1) unless `extraEnv` sets WORKERS; a cluster logs at info, which tells when every
 * worker serves.
 */
export async function startTestServer(
  extraEnv: Record<string, string> = {},
  launch: Launch = "node",
  nodeArgs: string[] = [],
): Promise<TestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-server-"));
  const database = extraEnv.DATABASE_URL === undefined ? await createEmptyDatabase() : undefined;
  for (let attempt = 1; ; attempt++) {
    const port = extraEnv.PORT === undefined ? await freePort() : Number(extraEnv.PORT);
    const url = `http://127.0.0.1:${port}`;
    const env: ServerEnv = {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: url,
      DATABASE_URL: database?.url ?? "",
      MEDIA_DIR: path.join(dir, "media"),
      AUTH_SECRET: "integration-secret-integration-secret-0123",
      DEMO_CONTENT: "off",
      LOG_LEVEL: "warn",
      // One process unless a test asks for a cluster: most tests look at one server process.
      WORKERS: "1",
      ...(Number(extraEnv.WORKERS ?? 1) > 1 ? { LOG_LEVEL: "info" } : {}),
      ...extraEnv,
    };
    const cluster = Number(env.WORKERS) > 1 || env.VIEWS_PORT !== undefined;
    if (cluster && env.LOG_LEVEL !== "info")
      throw new Error("a cluster test server needs LOG_LEVEL=info, to see its workers serving");
    const server = spawnServer(env, launch, nodeArgs);
    try {
      await waitUntilUp(url, server.child, server.output, cluster);
    } catch (error) {
      if (server.child.exitCode !== null) await server.exited;
      // Another process (a test file running beside this one) took the free port before the server bound it: take another.
      if (extraEnv.PORT === undefined && attempt < PORT_ATTEMPTS && portTaken(server.output())) continue;
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return runningServer(server, { url, dir, env, launch, database });
  }
}

const PORT_ATTEMPTS = 3;

/** Whether a server's (or nginx's) output says its port was in use. */
export function portTaken(output: string): boolean {
  return /is already in use|Address already in use/.test(output);
}

/** Whether the primary forked `pid` as a helper (views or sender), by its environment: known before it logs a line. */
function isHelperProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1")
      .split("\0")
      .some((entry) => entry.startsWith(`${ROLE_ENV}=`));
  } catch {
    return false;
  }
}

/** The lines the views and the sender process log as they start (at info, as a cluster test server logs). */
const VIEWS_PROCESS_LINE = /"pid":(\d+),[^\n]*"msg":"readers' views are counted on /g;
const SENDER_PROCESS_LINE = /"pid":(\d+),[^\n]*"msg":"push alerts are sent from this process"/g;

function runningServer(
  { child, output, exited }: ServerProcess,
  {
    url,
    dir,
    env,
    launch,
    database,
  }: { url: string; dir: string; env: ServerEnv; launch: Launch; database: EmptyDatabase | undefined },
): TestServer {
  const helperPid = (line: RegExp) => () => {
    const pid = Number([...output().matchAll(line)].at(-1)?.[1]);
    return nodeChildPids(child.pid ?? 0).includes(pid) ? pid : undefined;
  };
  const viewsPid = helperPid(VIEWS_PROCESS_LINE);
  const senderPid = helperPid(SENDER_PROCESS_LINE);
  return {
    url,
    dir,
    pid: child.pid ?? 0,
    workerPids: () => nodeChildPids(child.pid ?? 0).filter((pid) => !isHelperProcess(pid)),
    viewsPid,
    senderPid,
    env,
    site: { baseUrl: url, authSecret: env.AUTH_SECRET },
    output,
    exited,
    peakMemory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        if (launch === "npm start") process.kill(-(child.pid ?? 0), "SIGTERM");
        else child.kill("SIGTERM");
        await exited;
      }
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestSite = {
  /** The instances, in the order they started. */
  servers: TestServer[];
  database: EmptyDatabase;
  /** Starts one more instance on the site (e.g. in place of one that stopped) and adds it to `servers`. */
  startAnother: () => Promise<TestServer>;
  /** Stops every instance still running, then drops the database. */
  stop: () => Promise<void>;
};

/**
 * Several instances of the real server on one fresh database of the engine under test (or of `engine`), sharing one
 * media folder and secret, as several processes or machines of one site do. Each has its own port
 * and its own page cache; put a proxy in front of `servers[i].url` to balance them.
 */
export async function startTestSite(
  count: number,
  extraEnv: Record<string, string> = {},
  engine?: Engine,
): Promise<TestSite> {
  const database = await createEmptyDatabase(engine);
  const shared = { DATABASE_URL: database.url, MEDIA_DIR: path.join(database.dir, "media"), ...extraEnv };
  const servers: TestServer[] = [];
  try {
    // One after the other: the first migrates the database, the others find it current.
    for (let i = 0; i < count; i++) servers.push(await startTestServer(shared));
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
    throw error;
  }
  return {
    servers,
    database,
    startAnother: async () => {
      const server = await startTestServer(shared);
      servers.push(server);
      return server;
    },
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
    },
  };
}
