import { BoundedCache } from "~/lib/bounded-cache";
import { brotliCompressSync, constants, gzipSync, type BrotliOptions, type ZlibOptions } from "node:zlib";
import { CompressionThreads } from "./compression-threads.server";

export type Encoding = "br" | "gzip";

/** Below this a response goes out as it is: the encoded copy would save less than the work costs. */
export const MIN_ENCODED_BYTES = 1024;

/** Levels measured on our pages (docs/decisions/013): past them the bytes shrink little and the time grows fast. */
const BROTLI: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP: ZlibOptions = { level: 6 };

/**
 * The threads a site encodes whole bodies on (`site.compression`): two per process, as a page's
 * encoding takes a fraction of its render, and each thread holds its own encoder.
 */
export function createCompressionThreads(): CompressionThreads {
  return new CompressionThreads(2, { brotli: BROTLI, gzip: GZIP });
}

/** Browsers send a handful of distinct Accept-Encoding values: each one's answer is kept, a few dozen at most. */
const preferences = new BoundedCache<string, Encoding | undefined>({ maxEntries: 32 });

/** The encoding to send under this Accept-Encoding: brotli, else gzip, else none (a `q=0` refuses one). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  return preferences.get(acceptEncoding, parsePreference);
}

function parsePreference(acceptEncoding: string): Encoding | undefined {
  let gzipAccepted = false;
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.split(";");
    const coding = name.trim().toLowerCase();
    if (coding !== "br" && coding !== "gzip") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (coding === "br") return "br";
    gzipAccepted = true;
  }
  return gzipAccepted ? "gzip" : undefined;
}

/** The same encoding, here and now (a cached page's copy in a second encoding, made once). */
export function encodeNow(body: Buffer, encoding: Encoding): Buffer {
  return encoding === "br" ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}

const ENCODABLE_TYPE = /^(text\/(?!event-stream)|application\/([\w.+-]*\+)?(json|xml|javascript)|image\/svg\+xml)/i;

/** Whether a response of this Content-Type is text worth encoding (never an event stream). */
export function isEncodableType(contentType: string): boolean {
  return ENCODABLE_TYPE.test(contentType);
}
