import type { RequestHandler, Response } from "express";
import type { CompressionThreads } from "./compression-threads.server";
import { isEncodableType, MIN_ENCODED_BYTES, preferredEncoding, type Encoding } from "./encoding.server";
import { logger } from "~/server/platform/logger.server";

/** A response's whole body as it went out: the plain bytes, and the encoded copy sent if one was. */
export type WholeBody = { body: Buffer; encoding?: Encoding; encoded?: Buffer };

const LISTENERS = Symbol("wholeBodyListeners");
type WithListeners = Response & { [LISTENERS]?: ((whole: WholeBody) => void)[] };

/** Calls `listener` with the response's whole body once it has been sent (not for streamed responses). */
export function onWholeBody(res: Response, listener: (whole: WholeBody) => void): void {
  const holder = res as WithListeners;
  (holder[LISTENERS] ??= []).push(listener);
}

function asBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (typeof chunk === "string")
    return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  // A copy: the writer may reuse its buffer once write() has returned.
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return undefined;
}

/** Whether this response, as its first bytes are written, is text to send whole (never an event stream, nor an answer to HEAD). */
function sendsWhole(method: string, res: Response): boolean {
  if (res.headersSent || method === "HEAD" || res.statusCode === 204 || res.statusCode === 304) return false;
  if (res.hasHeader("content-encoding") || /no-transform/.test(String(res.getHeader("cache-control") ?? "")))
    return false;
  return isEncodableType(String(res.getHeader("content-type") ?? ""));
}

/**
 * Text responses (pages, JSON, feeds) are gathered whole, whatever chunks their writer sends, then
 * encoded once on `threads` in the client's preferred encoding and sent with their Content-Length.
 * Anything else (files, media, the event stream, HEAD) passes straight through. See docs/decisions/013.
 */
export function wholeResponses(threads: CompressionThreads): RequestHandler {
  return (req, res, next) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let chunks: Buffer[] | undefined;
    let passing = false;
    const gathering = () => {
      if (!chunks && !passing) {
        if (sendsWhole(req.method, res)) chunks = [];
        else passing = true;
      }
      return chunks !== undefined;
    };
    res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      if (!gathering()) return write(chunk, encoding, callback);
      const bytes = asBuffer(chunk, encoding);
      if (bytes) chunks!.push(bytes);
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") process.nextTick(done as () => void);
      return true;
    }) as Response["write"];
    res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      if (typeof chunk === "function") [chunk, callback] = [undefined, chunk];
      else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
      if (!gathering()) return end(chunk, encoding, callback);
      const bytes = chunk === undefined || chunk === null ? undefined : asBuffer(chunk, encoding);
      if (bytes) chunks!.push(bytes);
      const whole = chunks!.length === 1 ? chunks![0]! : Buffer.concat(chunks!);
      void sendWhole(res, end, whole, req.headers["accept-encoding"], threads, callback);
      return res;
    }) as Response["end"];
    next();
  };
}

async function sendWhole(
  res: Response,
  end: (...args: unknown[]) => Response,
  body: Buffer,
  acceptEncoding: string | undefined,
  threads: CompressionThreads,
  callback: unknown,
) {
  const encodable = body.length >= MIN_ENCODED_BYTES && !res.headersSent;
  const encoding = encodable ? preferredEncoding(acceptEncoding) : undefined;
  if (encodable) res.vary("Accept-Encoding");
  let whole: WholeBody = { body };
  if (encoding) {
    try {
      whole = { body, encoding, encoded: await threads.encode(body, encoding) };
      res.setHeader("Content-Encoding", encoding);
    } catch (error) {
      // A body the encoder failed on (its thread died) still goes out, as it is.
      logger.error({ err: error }, "encoding failed");
    }
  }
  const sent = whole.encoded ?? body;
  if (!res.headersSent) res.setHeader("Content-Length", String(sent.length));
  end(sent, callback);
  for (const listener of (res as WithListeners)[LISTENERS] ?? []) listener(whole);
}
