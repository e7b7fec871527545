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

  it("exits 1 with the reason when its workers cannot listen, instead of restarting them in a loop", { timeout: 90_000 }, async () => {
    server = await startTestServer();
    const second = spawnServer({ ...server.env, WORKERS: "2", LOG_LEVEL: "info" });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Port ${server.env.PORT} on 127.0.0.1 is already in use`);
    expect(second.output()).toContain("before the server could serve; stopping");
  });
});
