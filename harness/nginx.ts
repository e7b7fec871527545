import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEmptyDatabase } from "./temp-db";
import { freePort, portTaken, startTestServer, type TestServer } from "./test-server";

/** Debian's nginx (package nginx); NGINX_PATH names another. */
export const NGINX_PATH = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const DEPLOY_NGINX_CONF = path.resolve("deploy/nginx.conf");
/** The access log's format: the upstream that answered each request, for tests that look at the spread. */
const ACCESS_LOG_FORMAT = `'$request_method $uri $status upstream=$upstream_addr'`;

export function nginxInstalled(): boolean {
  return existsSync(NGINX_PATH);
}

/** Replaces the text between `# ── name ──` and `# ── end name ──` (markers included); the part must be there once. */
function replacePart(config: string, name: string, replacement: string): string {
  const pattern = new RegExp(`^[ \\t]*# ── ${name} ──\\n[\\s\\S]*?^[ \\t]*# ── end ${name} ──\\n`, "gm");
  const matches = config.match(pattern) ?? [];
  if (matches.length !== 1)
    throw new Error(
      `deploy/nginx.conf: expected one "# ── ${name} ──" … "# ── end ${name} ──" part, found ${matches.length}`,
    );
  return config.replace(pattern, replacement);
}

/** The response header the tests' nginx adds: the upstreams it tried for the request, the one that answered last. */
export const UPSTREAM_HEADER = "x-upstream";

/** The instance ("host:port") that answered, from UPSTREAM_HEADER's value ("127.0.0.1:4001, 127.0.0.1:4002" when the first refused). */
export function answeredBy(upstreams: string | string[] | null | undefined): string | undefined {
  return (
    String(upstreams ?? "")
      .split(",")
      .at(-1)
      ?.trim() || undefined
  );
}

const serverLines = (addresses: string[], suffix = "") =>
  addresses.map((address) => `    server ${address}${suffix};\n`).join("");

/**
 * deploy/nginx.conf as the tests run it: the upstream servers are `upstreams`, views go to `views` (the
 * instances' views processes) with `upstreams` as their backup, or to `upstreams` when there are none; no
 * redirect to HTTPS, and instead of TLS a plain listener on 127.0.0.1:`port` whose responses say which
 * upstream answered (UPSTREAM_HEADER). Everything else is the deployed file's.
 */
export function siteConfigForTests(template: string, port: number, upstreams: string[], views: string[] = []): string {
  let config = replacePart(template, "upstream servers", serverLines(upstreams));
  config = replacePart(
    config,
    "views upstream servers",
    views.length === 0 ? serverLines(upstreams) : serverLines(views) + serverLines(upstreams, " backup"),
  );
  config = replacePart(config, "redirect to HTTPS", "");
  return replacePart(
    config,
    "TLS",
    `    listen 127.0.0.1:${port};\n    server_name localhost;\n    add_header ${UPSTREAM_HEADER} $upstream_addr always;\n`,
  );
}

/** A whole nginx configuration around the site's: no daemon, every file in `dir`. */
function mainConfig(dir: string, site: string): string {
  const temp = (name: string) => path.join(dir, "temp", name);
  return [
    "daemon off;",
    "worker_processes 1;",
    // As root, nginx's workers would otherwise run as nobody, who cannot use the private temporary folder.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    "events { worker_connections 512; }",
    "http {",
    `  log_format upstreams ${ACCESS_LOG_FORMAT};`,
    `  access_log ${path.join(dir, "access.log")} upstreams;`,
    `  client_body_temp_path ${temp("client")};`,
    `  proxy_temp_path ${temp("proxy")};`,
    `  fastcgi_temp_path ${temp("fastcgi")};`,
    `  uwsgi_temp_path ${temp("uwsgi")};`,
    `  scgi_temp_path ${temp("scgi")};`,
    site,
    "}",
    "",
  ].join("\n");
}

export type Nginx = {
  url: string;
  port: number;
  pid: number;
  /** The access log's lines so far: `METHOD /path STATUS upstream=ADDRESS`. */
  accessLog: () => string[];
  stop: () => Promise<void>;
};

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Debian's nginx in the foreground with deploy/nginx.conf in front of `upstreams` ("host:port") and their views processes (`views`), on `port` (default: a free one). */
export async function startNginx(upstreams: string[], port?: number, views: string[] = []): Promise<Nginx> {
  if (!nginxInstalled())
    throw new Error(`nginx is missing at ${NGINX_PATH}: apt-get install nginx (or set NGINX_PATH)`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNginxOn(upstreams, port ?? (await freePort()), views);
    } catch (error) {
      // Another process (a test file running beside this one) took the free port before nginx bound it: take another.
      if (port === undefined && attempt < 3 && portTaken(String(error))) continue;
      throw error;
    }
  }
}

async function startNginxOn(upstreams: string[], listenPort: number, views: string[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-nginx-"));
  mkdirSync(path.join(dir, "temp"));
  const configFile = path.join(dir, "nginx.conf");
  writeFileSync(
    configFile,
    mainConfig(dir, siteConfigForTests(readFileSync(DEPLOY_NGINX_CONF, "utf8"), listenPort, upstreams, views)),
  );
  let output = "";
  const child = spawn(NGINX_PATH, ["-p", dir, "-c", configFile, "-e", path.join(dir, "error.log")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errorLog = () =>
    existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : "";
  const deadline = Date.now() + 10_000;
  while (!(await accepts(listenPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      await exited;
      const printed = `${output}\n${errorLog()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start:\n${printed}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${listenPort}`,
    port: listenPort,
    pid: child.pid ?? 0,
    accessLog: () => {
      const file = path.join(dir, "access.log");
      return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type SiteBehindNginx = {
  /** nginx's address: what readers use, and every instance's BASE_URL. */
  url: string;
  nginx: Nginx;
  instances: TestServer[];
  /**
   * With `pinned`: for each instance, an nginx of its own running the same configuration in front of
   * that instance alone: the way to send a request through nginx to a chosen instance. The
   * instances' BASE_URL stays `url` (send `origin: url` with writes).
   */
  pinned: Nginx[];
  stop: () => Promise<void>;
};

/**
 * `instances` production servers (each with `env`, e.g. WORKERS, and a views process as deployed) on one
 * fresh database of the engine under test and one media folder, behind nginx with deploy/nginx.conf
 * (and, with `pinned`, an nginx per instance too). The servers trust nginx's address (127.0.0.1) for X-Forwarded-For.
 */
export async function startSiteBehindNginx(
  instances: number,
  env: Record<string, string> = {},
  { pinned = false } = {},
): Promise<SiteBehindNginx> {
  const database = await createEmptyDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const servers: TestServer[] = [];
  const pinnedNginx: Nginx[] = [];
  let nginx: Nginx | undefined;
  const stop = async () => {
    for (const proxy of [nginx, ...pinnedNginx]) await proxy?.stop();
    for (const server of servers) await server.stop();
    await database.drop();
  };
  try {
    const viewsPorts: number[] = [];
    for (let i = 0; i < instances; i++) {
      viewsPorts.push(await freePort());
      servers.push(
        await startTestServer({
          DATABASE_URL: database.url,
          MEDIA_DIR: path.join(database.dir, "media"),
          BASE_URL: url,
          TRUST_PROXY: "127.0.0.1",
          VIEWS_PORT: String(viewsPorts[i]),
          LOG_LEVEL: "info",
          ...env,
        }),
      );
    }
    const views = viewsPorts.map((viewsPort) => `127.0.0.1:${viewsPort}`);
    nginx = await startNginx(
      servers.map((server) => new URL(server.url).host),
      port,
      views,
    );
    if (pinned)
      for (const [i, server] of servers.entries())
        pinnedNginx.push(await startNginx([new URL(server.url).host], undefined, [views[i]!]));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, nginx, instances: servers, pinned: pinnedNginx, stop };
}
