import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/server/db/db.server";
import { KEEP_ALIVE_MS } from "~/server/site/lifecycle.server";
import { signedInAs } from "../../harness/accounts";
import { publishForm } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { spawnServer, startTestServer, type TestServer } from "../../harness/test-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Reads an event stream as raw text until the server ends it. */
async function readStream(url: string): Promise<{ text: () => string; ended: Promise<"clean" | "error"> }> {
  const response = await fetch(url);
  let text = "";
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "clean" as const;
        text += value;
      }
    } catch {
      return "error" as const;
    }
  })();
  return { text: () => text, ended };
}

function stagedUploads(mediaDir: string): string[] {
  const staging = path.join(mediaDir, ".staging");
  return existsSync(staging) ? readdirSync(staging) : [];
}

/** An article upload of which only the first half of the body is sent; `finish` sends the rest. */
async function startUpload(url: string, cookie: string) {
  const form = publishForm("خبر أثناء الإيقاف", {}, [
    { field: "images", name: "photo.png", bytes: await pngBytes(800, 600) },
  ]);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const request = http.request(`${url}/api/news`, {
    method: "POST",
    headers: {
      cookie,
      origin: url,
      "content-type": encoded.headers.get("content-type")!,
      "content-length": body.length,
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
  });
  answer.catch(() => {}); // a cut upload rejects; only `finish` callers look at the answer
  request.write(body.subarray(0, body.length / 2));
  return {
    finish: () => {
      request.end(body.subarray(body.length / 2));
      return answer;
    },
    closed: new Promise<void>((resolve) => request.on("close", resolve)),
  };
}

const WAIT = { timeout: 10_000, interval: 20 };

describe("the server process", () => {
  it("keeps an idle connection open longer than nginx keeps its own, and a stop still closes it at once", async () => {
    const started = (server = await startTestServer());
    const agent = new http.Agent({ keepAlive: true });
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      http
        .get(`${started.url}/healthz`, { agent }, (response) =>
          response.resume().on("end", () => resolve(response.headers)),
        )
        .on("error", reject);
    });
    expect(headers["keep-alive"]).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    const nginxSeconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(readFileSync("deploy/nginx.conf", "utf8"))?.[1]);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(nginxSeconds * 1000);
    // The idle connection is still open: the stop must not wait for it.
    process.kill(started.pid, "SIGTERM");
    expect(await started.exited).toBe(0);
    agent.destroy();
  });

  it("exits 1 with a clear message when its port is already in use", async () => {
    server = await startTestServer();
    const second = spawnServer(server.env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Port ${server.env.PORT} on 127.0.0.1 is already in use`);
    expect(second.output()).toContain("PORT=");
    expect(second.output()).not.toContain("serving");
  });

  it("on SIGTERM ends event streams with a retry hint, finishes an upload in flight, refuses new connections and exits 0", async () => {
    server = await startTestServer();
    const { url, env } = server;
    const db = openDatabase(env.DATABASE_URL);
    const cookie = await signedInAs(
      db,
      { baseUrl: url, authSecret: env.AUTH_SECRET },
      { email: "desk@example.com", username: "المكتب", role: "admin" },
    );

    const stream = await readStream(`${url}/api/breaking/stream`);
    await vi.waitFor(() => expect(stream.text(), "the stream's snapshot").toContain("data: "), WAIT);

    const upload = await startUpload(url, cookie);
    await vi.waitFor(() => expect(stagedUploads(env.MEDIA_DIR), "the upload to start").not.toHaveLength(0), WAIT);

    const signalled = Date.now();
    process.kill(server.pid, "SIGTERM");
    expect(await stream.ended).toBe("clean");
    expect(stream.text()).toMatch(/retry: \d+\n\n$/);
    await expect(fetch(`${url}/who`)).rejects.toThrow();

    const { status, body: text } = await upload.finish();
    expect(status).toBe(201);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);

    const { id } = JSON.parse(text) as { id: string };
    const article = await db.selectFrom("news").select("images").where("id", "=", id).executeTakeFirstOrThrow();
    const [image] = JSON.parse(article.images) as string[];
    expect(existsSync(path.join(env.MEDIA_DIR, image!.replace(/^\/media\//, "")))).toBe(true);
    expect(stagedUploads(env.MEDIA_DIR)).toEqual([]);
    await db.destroy();
  });

  it("on SIGINT cuts an upload that never finishes after its grace period (SHUTDOWN_GRACE_SECONDS) and still exits 0", async () => {
    server = await startTestServer({ SHUTDOWN_GRACE_SECONDS: "1" });
    const { url, env } = server;
    const db = openDatabase(env.DATABASE_URL);
    const cookie = await signedInAs(
      db,
      { baseUrl: url, authSecret: env.AUTH_SECRET },
      { email: "desk@example.com", username: "المكتب", role: "admin" },
    );
    await db.destroy();
    const upload = await startUpload(url, cookie);
    await vi.waitFor(() => expect(stagedUploads(env.MEDIA_DIR), "the upload to start").not.toHaveLength(0), WAIT);

    const signalled = Date.now();
    process.kill(server.pid, "SIGINT");
    await upload.closed;
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(950);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3_000);
    expect(server.output()).toContain("1 request(s) still running after 1 s: closing their connections");
  });
});

/** The pids `npm start` logged for its workers and the sender process (with WORKERS > 1), or [] for one plain process. */
function loggedChildPids(output: string): number[] {
  const serving = / are serving: ([\d, ]+) \(primary \d+\)/.exec(output);
  return serving ? serving[1]!.split(", ").map(Number) : [];
}

// systemd stops a service by signalling its whole process group (control group), a terminal's Ctrl-C
// its foreground process group: every process of `npm start` gets the signal, then some get it again
// from their parent (npm, tsx, the cluster primary).
describe.each([
  { signal: "SIGTERM", as: "systemd's stop", workers: "2" },
  { signal: "SIGINT", as: "Ctrl-C", workers: "2" },
  { signal: "SIGTERM", as: "systemd's stop", workers: "1" },
  { signal: "SIGINT", as: "Ctrl-C", workers: "1" },
] as const)("npm start with WORKERS=$workers, on $as ($signal to its process group)", ({ signal, workers }) => {
  it(
    "finishes the request in flight, every process logs that it stopped, and npm exits 0",
    { timeout: 90_000 },
    async () => {
      server = await startTestServer({ WORKERS: workers, LOG_LEVEL: "info" }, "npm start");
      const { url, env } = server;
      const db = openDatabase(env.DATABASE_URL);
      const cookie = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "المكتب",
        role: "admin",
      });
      const upload = await startUpload(url, cookie);
      await vi.waitFor(() => expect(stagedUploads(env.MEDIA_DIR), "the upload to start").not.toHaveLength(0), WAIT);

      process.kill(-server.pid, signal);
      // The worker holding the upload hears the group's signal or the primary's SIGTERM, whichever comes first.
      await vi.waitFor(
        () =>
          expect(server!.output(), server!.output()).toMatch(/(SIGINT|SIGTERM): finishing 1 request\(s\) in flight/),
        WAIT,
      );
      const { status, body } = await upload.finish();
      expect(status, body).toBe(201);
      expect(await server.exited, server.output()).toBe(0);

      const output = server.output();
      // npm's, Node's (deprecations), our logger's (pino's level 40 and up): a start and stop that went well says none.
      expect(output.split("\n").filter((line) => /warn|deprecat|"level":[4-6]0/i.test(line))).toEqual([]);
      const childPids = loggedChildPids(output);
      expect(childPids).toHaveLength(workers === "1" ? 0 : 3);
      for (const pid of childPids)
        expect(output, `process ${pid}`).toMatch(new RegExp(`"pid":${pid},.*"msg":"stopped"`));
      const lastLine = output.trimEnd().split("\n").at(-1);
      expect(lastLine).toContain(workers === "1" ? '"msg":"stopped"' : '"msg":"all workers stopped"');
      const { id } = JSON.parse(body) as { id: string };
      expect(await db.selectFrom("news").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
      await db.destroy();
    },
  );
});
