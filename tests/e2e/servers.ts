import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { createNamedPostgresDatabase, dropPostgresDatabase, postgresUrl } from "../../harness/postgres";
import { siteClock, type SiteClock } from "../support/site-clock";
import { spawnServer, type ServerProcess } from "../../harness/test-server";

// E2E_PORT_BASE lets two checkouts run their browser tests side by side.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
/**
 * Each Playwright worker has servers of its own (its slot: Playwright's parallel index), so what one
 * worker's specs change on a site (accounts, articles, visits, the clock) never meets another's.
 */
const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const PORTS_PER_SLOT = 10;
/** Above the slots' ports: the servers every worker shares, then the specs that start servers of their own. */
const SHARED_PORT_BASE = PORT_BASE + 80;
export const SPEC_PORT_BASE = PORT_BASE + 90;
const ROOT = path.resolve(".tmp/e2e");
/** This worker's folder for what its specs write to disk: sessions, images to upload. */
export const FILES_DIR = path.resolve(".tmp/e2e-files", String(SLOT));
/** Set by npm test when the PostgreSQL pass runs: the engine-parameterised specs then run on both. */
const WITH_POSTGRES = process.env.E2E_POSTGRES === "1";

export type E2EServer = {
  name: string;
  engine: "sqlite" | "postgres";
  /** Its database (SQLite) and media folder, and its clock's file. */
  dir: string;
  postgresName: string | null;
  /** The seeded site this one starts as a copy of, instead of seeding its own. */
  from?: E2EServer;
  url: string;
  /** The server's clock for scheduled articles and the trash purge, which a spec moves instead of waiting. */
  clock: SiteClock;
  env: Record<string, string> & { DATABASE_URL: string; AUTH_SECRET: string };
};

function server(
  name: string,
  port: number,
  folder: string,
  options: { demo: boolean; postgres?: boolean; from?: E2EServer },
): E2EServer {
  const dir = path.join(ROOT, folder);
  // Named after the port, so two checkouts or two workers never share one.
  const postgresName = options.postgres ? `akhbar_e2e_${port}` : null;
  // In the server's folder, so every start begins on the real clock.
  const clock = siteClock(path.join(dir, "clock"));
  return {
    name,
    engine: options.postgres ? "postgres" : "sqlite",
    dir,
    postgresName,
    from: options.from,
    url: `http://127.0.0.1:${port}`,
    clock,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: postgresName ? postgresUrl(postgresName) : path.join(dir, "akhbar.db"),
      MEDIA_DIR: path.join(dir, "media"),
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
      DEMO_CONTENT: options.demo ? "on" : "off",
      LOG_LEVEL: "warn",
      // One process: the browser specs test pages; several processes have their own tests (instances, behind nginx).
      WORKERS: "1",
      // As behind a proxy on the same machine: a test that counts visits gives its browser its own address.
      TRUST_PROXY: "loopback",
      // Scheduled articles go out within half a second of their time, so a spec need not wait long.
      SCHEDULER_INTERVAL_MS: "500",
      ...clock.env,
    },
  };
}

/**
 * The demo sites as the server seeds them, once per run for every worker (global-setup.ts): seeding
 * draws the demo images, seconds of work that each worker's demo servers copy instead.
 */
const sqliteTemplate = server("demo-template", SHARED_PORT_BASE, "demo-template", { demo: true });
const postgresTemplate = server("demo-postgres-template", SHARED_PORT_BASE + 1, "demo-postgres-template", {
  demo: true,
  postgres: true,
});
export const DEMO_TEMPLATES: E2EServer[] = WITH_POSTGRES ? [sqliteTemplate, postgresTemplate] : [sqliteTemplate];

/** One of this worker's servers: its port and folder are its slot's. */
const slotted = (name: string, offset: number, options: Parameters<typeof server>[3]) =>
  server(name, PORT_BASE + SLOT * PORTS_PER_SLOT + offset, `${name}-${SLOT}`, options);
const demo = slotted("demo", 0, { demo: true, from: sqliteTemplate });
const demoPostgres = slotted("demo-postgres", 1, { demo: true, postgres: true, from: postgresTemplate });

/** This worker's demo sites, one per engine: the engine-parameterised specs run on each. */
export const DEMO_SITES: E2EServer[] = WITH_POSTGRES ? [demo, demoPostgres] : [demo];

/**
 * The widths a spec that runs on each engine and at both widths runs at on `site`. Every width on
 * every engine would repeat each engine's work at each width: with both engines, SQLite runs at
 * 375 px and PostgreSQL at 1280 px, so each case still meets both engines and both widths.
 */
export function widthsOn(site: E2EServer): number[] {
  if (!WITH_POSTGRES) return [375, 1280];
  return site.engine === "postgres" ? [1280] : [375];
}

/**
 * The production servers the specs open: this worker's demo sites, and an empty site that every
 * worker shares (global-setup.ts starts it): no spec writes to it.
 */
export const E2E_SERVERS = {
  demo,
  empty: server("empty", SHARED_PORT_BASE + 2, "empty", { demo: false }),
  ...(WITH_POSTGRES ? { demoPostgres } : {}),
};

/** Until `url` says it can serve (GET /readyz), failing at once with what the server printed if it stops. */
export async function untilReady(url: string, server: ServerProcess): Promise<void> {
  await expect
    .poll(
      async () => {
        if (server.child.exitCode !== null) throw new Error(`the server at ${url} stopped:\n${server.output()}`);
        return fetch(`${url}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 120_000, intervals: [200] },
    )
    .toBe(200);
}

/** A fresh database and media folder for `site`: empty, or a copy of the site it starts from. */
async function freshSite(site: E2EServer): Promise<void> {
  rmSync(site.dir, { recursive: true, force: true });
  if (site.from) cpSync(site.from.dir, site.dir, { recursive: true });
  mkdirSync(site.dir, { recursive: true });
  if (site.postgresName) {
    await dropPostgresDatabase(site.postgresName);
    await createNamedPostgresDatabase(site.postgresName, undefined, site.from?.postgresName ?? undefined);
  }
}

/**
 * Starts `servers` side by side, each over a fresh site, and resolves once every one can serve, with
 * the function that stops them. What they print on stderr goes to this process's.
 */
export async function startServers(servers: E2EServer[]): Promise<() => Promise<void>> {
  const running: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(
      running.map(async ({ child, exited }) => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
      }),
    );
  };
  try {
    await Promise.all(
      servers.map(async (site) => {
        await freshSite(site);
        const started = spawnServer(site.env);
        started.child.stderr?.on("data", (chunk: Buffer) =>
          process.stderr.write(`[${path.basename(site.dir)}] ${chunk.toString()}`),
        );
        running.push(started);
        await untilReady(site.url, started);
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
