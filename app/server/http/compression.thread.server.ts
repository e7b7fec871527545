import { brotliCompressSync, gzipSync } from "node:zlib";
import { serveJobs, threadData } from "~/server/platform/thread-jobs.server";
import type { EncodeJob, EncoderSettings } from "./compression-threads.server";

/** A compression thread: zlib's one-shot encoders on whole bodies. The answer is copied back, not transferred. */
const settings = threadData<EncoderSettings>();
serveJobs<EncodeJob, Uint8Array>(({ body, encoding }) =>
  encoding === "br" ? brotliCompressSync(body, settings.brotli) : gzipSync(body, settings.gzip),
);
