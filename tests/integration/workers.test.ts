import http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { publishForm } from "../../harness/articles";
import { isRunning } from "../../harness/processes";
import { freePort, spawnServer, startTestServer, type TestServer } from "../../harness/test-server";
import { replacementOf } from "../support/worker-connections";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A publish takes well under a second; one unanswered this long would wait for ever without the timeout. */
const UNANSWERED_AFTER_MS = 10_000;

describe("npm start with WORKERS=2", () => {
  it(
    "logs its workers' pids, and on SIGTERM stops them gracefully and then itself with status 0",
    { timeout: 90_000 },
    async () => {
      server = await startTestServer({ WORKERS: "2" });
      const workers = server.workerPids();
      const sender = server.senderPid()!;
      expect(workers).toHaveLength(2);
      expect(server.output()).toContain(
        `2 workers and the sender process are serving: ${[...workers, sender].join(", ")}`,
      );
      process.kill(server.pid, "SIGTERM");
      expect(await server.exited).toBe(0);
      for (const pid of [...workers, sender]) expect(isRunning(pid), `process ${pid}`).toBe(false);
      for (const pid of [...workers, sender])
        expect(server.output()).toMatch(new RegExp(`"pid":${pid},.*"msg":"stopped"`));
      expect(server.output()).toContain("all workers stopped");
    },
  );

  it("waits longer before each replacement of a worker that keeps dying young", { timeout: 90_000 }, async () => {
    server = await startTestServer({ WORKERS: "2" });
    const running = server;
    /** Kills the worker, and returns its replacement once that serves. */
    const killAndReplace = async (victim: number): Promise<number> => {
      const others = running.workerPids().filter((pid) => pid !== victim);
      process.kill(victim, "SIGKILL");
      const deadline = Date.now() + 30_000;
      for (;;) {
        const replacement = running.workerPids().find((pid) => pid !== victim && !others.includes(pid));
        if (replacement && running.output().includes(`worker ${replacement} is serving`)) return replacement;
        if (Date.now() > deadline) throw new Error(`no replacement for ${victim}:\n${running.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const first = server.workerPids()[0]!;
    const second = await killAndReplace(first);
    const third = await killAndReplace(second);
    await killAndReplace(third);
    expect(server.output()).toContain(`worker ${first} died (SIGKILL); starting a replacement in 100 ms`);
    expect(server.output()).toContain(`worker ${second} died (SIGKILL); starting a replacement in 200 ms`);
    expect(server.output()).toContain(`worker ${third} died (SIGKILL); starting a replacement in 400 ms`);
  });

  it(
    "answers or resets every publish while its workers are killed (SIGKILL): none waits unanswered",
    { timeout: 120_000 },
    async () => {
      server = await startTestServer({ WORKERS: "2" });
      const running = server;
      const db = openDatabase(server.env.DATABASE_URL);
      const cookie = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "المكتب",
        role: "admin",
      });
      await db.destroy();
      /** Publishes answered, by status; cut (the client sees its connection reset); unanswered after UNANSWERED_AFTER_MS. */
      const outcomes = { answered: {} as Record<number, number>, reset: 0, unanswered: 0 };
      const answered = () => Object.values(outcomes.answered).reduce((sum, n) => sum + n, 0);
      /** One publish on a connection of its own, so that each goes through the primary's hand-out. */
      const publish = async (n: number) => {
        const form = new Response(publishForm(`خبر ${n}`));
        const body = Buffer.from(await form.arrayBuffer());
        const headers = {
          cookie,
          origin: running.url,
          "content-type": form.headers.get("content-type")!,
          "content-length": body.length,
        };
        await new Promise<void>((resolve) => {
          let settled = false;
          let timedOut = false;
          const settle = (outcome: number | "reset" | "unanswered") => {
            if (settled) return;
            settled = true;
            if (typeof outcome === "number") outcomes.answered[outcome] = (outcomes.answered[outcome] ?? 0) + 1;
            else outcomes[outcome]++;
            resolve();
          };
          const request = http.request(
            `${running.url}/api/news`,
            { method: "POST", agent: false, headers },
            (response) => {
              response.resume();
              response.on("end", () => settle(response.statusCode ?? 0));
              response.on("error", () => settle("reset"));
            },
          );
          request.setTimeout(UNANSWERED_AFTER_MS, () => {
            timedOut = true;
            request.destroy();
          });
          request.on("error", () => settle(timedOut ? "unanswered" : "reset"));
          request.end(body);
        });
      };
      let sent = 0;
      let publishing = true;
      const publishers = Array.from({ length: 6 }, async () => {
        while (publishing) await publish(sent++);
      });
      for (let kill = 0; kill < 4; kill++) {
        const before = answered();
        await vi.waitFor(() => expect(answered()).toBeGreaterThan(before + 10), { timeout: 30_000, interval: 20 });
        const victim = running.workerPids()[kill % 2]!;
        process.kill(victim, "SIGKILL");
        await replacementOf(running, victim);
      }
      publishing = false;
      await Promise.all(publishers);
      expect(outcomes, JSON.stringify(outcomes)).toMatchObject({ unanswered: 0, answered: { 201: answered() } });
      expect(answered() + outcomes.reset).toBe(sent);
    },
  );

  it(
    "with VIEWS_PORT, replaces the views process when it dies, and counts views on its port again",
    { timeout: 90_000 },
    async () => {
      const viewsPort = await freePort();
      server = await startTestServer({ WORKERS: "2", VIEWS_PORT: String(viewsPort) });
      const running = server;
      expect(server.output()).toContain(`2 workers, the views process and the sender process are serving`);
      const victim = server.viewsPid()!;
      process.kill(victim, "SIGKILL");
      await vi.waitFor(() => expect(running.viewsPid() ?? victim, running.output()).not.toBe(victim), {
        timeout: 30_000,
        interval: 50,
      });
      expect(server.output()).toContain(`worker ${victim} died (SIGKILL); starting a replacement in 100 ms`);
      expect(server.workerPids()).toHaveLength(2);
      const view = await fetch(`http://127.0.0.1:${viewsPort}/api/site-visit`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0" },
        body: JSON.stringify({ reader: "reader-after-replacement" }),
      });
      expect(view.status).toBe(200);
    },
  );

  it(
    "exits 1 with the reason when its workers cannot listen, instead of restarting them in a loop",
    { timeout: 90_000 },
    async () => {
      server = await startTestServer();
      const second = spawnServer({ ...server.env, WORKERS: "2", LOG_LEVEL: "info" });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Port ${server.env.PORT} on 127.0.0.1 is already in use`);
      expect(second.output()).toContain("before the server could serve; stopping");
    },
  );
});
