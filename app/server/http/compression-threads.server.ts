import type { BrotliOptions, ZlibOptions } from "node:zlib";
import { ThreadPool } from "~/server/platform/thread-pool.server";

export type ThreadEncoding = "br" | "gzip";
export type EncoderSettings = { brotli: BrotliOptions; gzip: ZlibOptions };
export type EncodeJob = { body: Buffer; encoding: ThreadEncoding };

/**
 * Whole bodies encoded on threads of their own (compression.thread.server.ts), so the event loop builds
 * no zlib stream per body (docs/decisions/029). A thread that fails is replaced; its jobs are refused with its error.
 */
export class CompressionThreads {
  private readonly pool: ThreadPool<EncodeJob, Uint8Array>;

  constructor(size: number, settings: EncoderSettings) {
    this.pool = new ThreadPool({ thread: "http/compression", size, workerData: settings });
  }

  async encode(body: Buffer, encoding: ThreadEncoding): Promise<Buffer> {
    const encoded = await this.pool.run({ body, encoding });
    return Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  }

  /** Ends every thread now: the jobs they hold are refused, and a later `encode` starts a new thread. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
