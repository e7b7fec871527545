import path from "node:path";
import { postgresUrl } from "../support/postgres";
import { siteClock } from "../support/site-clock";

// E2E_PORT_BASE lets two checkouts run their browser tests side by side.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
const ROOT = path.resolve(".tmp/e2e");
/** Set by npm test when the PostgreSQL pass runs: the engine-parameterised specs then run on both. */
const WITH_POSTGRES = process.env.E2E_POSTGRES === "1";

// The servers run on the Node that runs the tests, whichever `node` comes first on PATH.
const NODE = JSON.stringify(process.execPath);

function server(name: string, port: number, options: { demo: boolean; postgres?: boolean }) {
  const dir = path.join(ROOT, name);
  // Named after the port, so two checkouts never share one.
  const postgresName = `akhbar_e2e_${port}`;
  const freshDatabase = options.postgres
    ? `${NODE} --import tsx tests/e2e/fresh-postgres-database.ts ${postgresName}`
    : "true";
  // In the server's folder, so every start begins on the real clock.
  const clock = siteClock(path.join(dir, "clock"));
  return {
    name,
    engine: options.postgres ? ("postgres" as const) : ("sqlite" as const),
    dir,
    url: `http://127.0.0.1:${port}`,
    /** The server's clock for scheduled articles and the trash purge, which a spec moves instead of waiting. */
    clock,
    /** Starts the server over a fresh database and media folder. */
    command: `rm -rf "${dir}" && ${freshDatabase} && ${NODE} --import tsx server.ts`,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: options.postgres ? postgresUrl(postgresName) : path.join(dir, "akhbar.db"),
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

export type E2EServer = ReturnType<typeof server>;

const demo = server("demo", PORT_BASE, { demo: true });
const demoPostgres = server("demo-postgres", PORT_BASE + 2, { demo: true, postgres: true });

/** The production servers the browser tests run against: one with demo content, one empty (and PostgreSQL's demo). */
export const E2E_SERVERS = {
  demo,
  empty: server("empty", PORT_BASE + 1, { demo: false }),
  ...(WITH_POSTGRES ? { demoPostgres } : {}),
};

/** The demo sites that the specs for publishing, live breaking and search run on, one per engine. */
export const DEMO_SITES: E2EServer[] = WITH_POSTGRES ? [demo, demoPostgres] : [demo];
