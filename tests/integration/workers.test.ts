import { afterEach, describe, expect, it } from "vitest";
import { isRunning } from "../support/processes";
import { spawnServer, startTestServer, type TestServer } from "../support/test-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("npm start with WORKERS=2", () => {
  it("logs its workers' pids, and on SIGTERM stops them gracefully and then itself with status 0", { timeout: 90_000 }, async () => {
    server = await startTestServer({ WORKERS: "2" });
    const workers = server.workerPids();
    expect(workers).toHaveLength(2);
    expect(server.output()).toContain(`2 workers are serving: ${workers.join(", ")}`);
    process.kill(server.pid, "SIGTERM");
    expect(await server.exited).toBe(0);
    for (const pid of workers) expect(isRunning(pid), `worker ${pid}`).toBe(false);
    for (const pid of workers) expect(server.output()).toMatch(new RegExp(`"pid":${pid},.*"msg":"stopped"`));
    expect(server.output()).toContain("all workers stopped");
  });

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

  it("exits 1 with the reason when its workers cannot listen, instead of restarting them in a loop", { timeout: 90_000 }, async () => {
    server = await startTestServer();
    const second = spawnServer({ ...server.env, WORKERS: "2", LOG_LEVEL: "info" });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Port ${server.env.PORT} on 127.0.0.1 is already in use`);
    expect(second.output()).toContain("before the server could serve; stopping");
  });
});
