import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";
import { replacementOf, streamOnWorker, type HeldStream } from "../support/worker-connections";

/*
 * One address's event streams are counted for the whole instance, not per worker, and a journalist's
 * presence stream has an allowance of its own that readers' streams cannot use up (decision 012).
 */

const PER_ADDRESS = 4;

let server: TestServer;
let db: DB;
let cookie = "";
let articleId = "";
let held: HeldStream[] = [];

beforeAll(async () => {
  ({ server, db } = await startServerAndDb({ WORKERS: "2", STREAM_MAX_PER_IP: String(PER_ADDRESS) }));
  cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" });
  ({ id: articleId } = await createTestArticle(db, { title: "خبر قيد التحرير", status: "draft" }));
}, 90_000);
afterAll(() => stopServerAndDb({ server, db }));
afterEach(() => {
  held.forEach((stream) => stream.close());
  held = [];
});

/** Opens a breaking-news stream on worker `pid` and keeps it open until the test ends. */
async function breakingOn(pid: number): Promise<number> {
  const stream = await streamOnWorker(server, pid, "/api/breaking/stream");
  held.push(stream);
  return stream.status;
}

async function presenceOn(pid: number): Promise<number> {
  const stream = await streamOnWorker(server, pid, `/api/news/${articleId}/presence`, { cookie });
  held.push(stream);
  return stream.status;
}

describe("event streams per address on a server with WORKERS=2", () => {
  it(
    "allows STREAM_MAX_PER_IP streams spread over both workers, and refuses the next on either",
    { timeout: 60_000 },
    async () => {
      const [a, b] = server.workerPids() as [number, number];
      const opened = [];
      for (let i = 0; i < PER_ADDRESS; i++) opened.push(await breakingOn(i % 2 === 0 ? a : b));
      expect(opened).toEqual(Array(PER_ADDRESS).fill(200));
      expect(await breakingOn(a)).toBe(503);
      expect(await breakingOn(b)).toBe(503);
    },
  );

  it(
    "still opens a journalist's presence stream when readers' streams from the address are at their limit",
    { timeout: 60_000 },
    async () => {
      const [a, b] = server.workerPids() as [number, number];
      // Freed slots come back once the hang-ups of the previous test reach the server.
      for (let opened = 0; opened < PER_ADDRESS;) {
        if ((await breakingOn(a)) === 200) opened++;
      }
      expect(await breakingOn(a)).toBe(503);
      expect(await presenceOn(a)).toBe(200);
      expect(await presenceOn(b)).toBe(200);
    },
  );

  it("gives back the streams a worker held when it dies", { timeout: 60_000 }, async () => {
    const [a, b] = server.workerPids() as [number, number];
    for (let opened = 0; opened < PER_ADDRESS;) {
      if ((await breakingOn(a)) === 200) opened++;
    }
    expect(await breakingOn(b)).toBe(503);
    process.kill(a, "SIGKILL");
    await replacementOf(server, a);
    const opened = [];
    for (let i = 0; i < PER_ADDRESS; i++) opened.push(await breakingOn(b));
    expect(opened).toEqual(Array(PER_ADDRESS).fill(200));
  });
});
