import path from "node:path";

// E2E_PORT_BASE lets two checkouts run their browser tests side by side.
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3210);
const ROOT = path.resolve(".tmp/e2e");

function server(name: string, port: number, demo: boolean) {
  const dir = path.join(ROOT, name);
  return {
    dir,
    url: `http://127.0.0.1:${port}`,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: path.join(dir, "akhbar.db"),
      MEDIA_DIR: path.join(dir, "media"),
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
      DEMO_CONTENT: demo ? "on" : "off",
      LOG_LEVEL: "warn",
      // As behind a proxy on the same machine: a test that counts visits gives its browser its own address.
      TRUST_PROXY: "loopback",
    },
  };
}

/** The production servers the browser tests run against: one with demo content, one empty. */
export const E2E_SERVERS = {
  demo: server("demo", PORT_BASE, true),
  empty: server("empty", PORT_BASE + 1, false),
};
