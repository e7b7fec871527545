import { Worker } from "node:worker_threads";
import type { BrotliOptions, ZlibOptions } from "node:zlib";

export type ThreadEncoding = "br" | "gzip";
export type EncoderSettings = { brotli: BrotliOptions; gzip: ZlibOptions };

/**
 * What each thread runs: zlib's one-shot encoders on whole bodies. The answer is copied back, not
 * transferred: a small answer lives in the thread's shared Buffer pool, which a transfer would detach.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const zlib = require("node:zlib");
parentPort.on("message", ({ id, body, encoding }) => {
  try {
    const encoded = encoding === "br" ? zlib.brotliCompressSync(body, workerData.brotli) : zlib.gzipSync(body, workerData.gzip);
    parentPort.postMessage({ id, encoded });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

type Job = { resolve: (encoded: Buffer) => void; reject: (error: Error) => void };
type Thread = { worker: Worker; jobs: Map<number, Job> };
type Answer = { id: number; encoded?: Uint8Array; error?: string };

/**
 * Whole bodies encoded on threads of their own, so the event loop builds no zlib stream per body
 * (docs/decisions/029). A thread that fails is replaced; its jobs are refused with its error.
 */
export class CompressionThreads {
  private readonly threads: (Thread | undefined)[];
  private turn = 0;
  private lastId = 0;

  constructor(
    size: number,
    private readonly settings: EncoderSettings,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`CompressionThreads needs at least one thread, not ${size}`);
    this.threads = Array.from({ length: size }, () => undefined);
  }

  encode(body: Buffer, encoding: ThreadEncoding): Promise<Buffer> {
    const index = this.turn++ % this.threads.length;
    const thread = (this.threads[index] ??= this.start(index));
    const id = ++this.lastId;
    return new Promise<Buffer>((resolve, reject) => {
      thread.jobs.set(id, { resolve, reject });
      thread.worker.postMessage({ id, body, encoding });
    });
  }

  /** Ends every thread now: the jobs they hold are refused, and a later `encode` starts a new thread. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread?.worker.terminate()));
  }

  private start(index: number): Thread {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: this.settings });
    const thread: Thread = { worker, jobs: new Map() };
    // Idle threads never keep the process alive; a job waiting for one is held by its request.
    worker.unref();
    worker.on("message", ({ id, encoded, error }: Answer) => {
      const job = thread.jobs.get(id);
      if (!job) return;
      thread.jobs.delete(id);
      if (encoded) job.resolve(Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength));
      else job.reject(new Error(error ?? "compression failed"));
    });
    const fail = (error: Error) => {
      if (this.threads[index] === thread) this.threads[index] = undefined;
      for (const job of thread.jobs.values()) job.reject(error);
      thread.jobs.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`compression thread exited with ${code}`)));
    return thread;
  }
}
