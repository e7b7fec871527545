import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ThreadPool, threadFile } from "./thread-pool.server";

/*
 * The pool through a real thread of the site's: the compression thread, whose jobs are bodies to
 * encode and whose handler throws on anything else.
 */

const settings = { brotli: {}, gzip: { level: 1 } };
const pool = (size: number) =>
  new ThreadPool<{ body: unknown; encoding: "br" | "gzip" }, Uint8Array>({
    thread: "http/compression",
    size,
    workerData: settings,
  });

describe("the thread pool", () => {
  it("names a thread by its module under app/server, run from the sources here", () => {
    expect(threadFile("push/delivery").pathname).toMatch(/\/app\/server\/push\/delivery\.thread\.server\.ts$/);
  });

  it("answers jobs handed over in one turn, each its own, and refuses one whose handler threw with that error, the thread kept", async () => {
    const threads = pool(2);
    try {
      const answers = await Promise.allSettled([
        threads.run({ body: Buffer.from("أ".repeat(2000)), encoding: "gzip" }),
        threads.run({ body: 42, encoding: "br" }),
        threads.run({ body: Buffer.from("ب"), encoding: "br" }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({
        message: expect.stringMatching(/argument/),
        code: "ERR_INVALID_ARG_TYPE",
      });
      expect(threads.running(1)).toBe(2);
    } finally {
      await threads.close();
    }
  });

  it("starts another thread for the next job once one has ended", async () => {
    const threads = pool(1);
    try {
      await threads.run({ body: Buffer.from("x"), encoding: "gzip" });
      expect(threads.running()).toBe(1);
      await threads.close();
      expect(threads.running()).toBeUndefined();
      await threads.run({ body: Buffer.from("y"), encoding: "gzip" });
      expect(threads.running()).toBe(2);
    } finally {
      await threads.close();
    }
  });

  it("keeps no process alive once its threads owe nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "akhbar-pool-"));
    const script = path.join(dir, "idle.mts");
    writeFileSync(
      script,
      `
      import { ThreadPool } from ${JSON.stringify(fileURLToPath(new URL("./thread-pool.server.ts", import.meta.url)))};
      const threads = new ThreadPool({ thread: "http/compression", size: 2, workerData: ${JSON.stringify(settings)} });
      const encoded = await threads.run({ body: Buffer.from("خبر"), encoding: "gzip" });
      console.log(encoded.length > 0 ? "answered" : "empty");
    `,
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      // Ended by the test should the pool hold it open.
      const held = setTimeout(() => child.kill(), 15_000);
      const [code] = (await once(child, "exit")) as [number | null];
      clearTimeout(held);
      expect({ code, output: output.trim() }).toEqual({ code: 0, output: "answered" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
