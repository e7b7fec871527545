import { AppError } from "~/server/platform/app-error.server";

/** What a route may be sent unless its reader allows more: a form of a few short fields. */
export const DEFAULT_BODY_BYTES = 64 * 1024;

type Meter = { limit: number };

const METER = Symbol("body meter");
type Metered = ReadableStream<Uint8Array> & { [METER]?: Meter };

/**
 * A body counted as its bytes arrive, whatever Content-Length said: past the limit it fails with a
 * too-large AppError and reads no further. Nothing is counted before a reader asks for bytes, so a
 * reader can still change the limit (bodyWithin) before it starts.
 */
export function meteredBody(body: ReadableStream<Uint8Array>, limit = DEFAULT_BODY_BYTES): ReadableStream<Uint8Array> {
  const meter: Meter = { limit };
  let read = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>(
    {
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > meter.limit) throw new AppError("too-large");
        controller.enqueue(chunk);
      },
    },
    undefined,
    { highWaterMark: 0 },
  );
  const metered: Metered = body.pipeThrough(counter);
  metered[METER] = meter;
  return metered;
}

/**
 * The request's body for a reader that takes up to `maxBytes` of it: the one every body reader goes
 * through. The server's requests come metered (at DEFAULT_BODY_BYTES) and get this limit instead;
 * any other request's body is metered here.
 */
export function bodyWithin(request: Request, maxBytes: number): ReadableStream<Uint8Array> {
  const body: Metered = request.body ?? new ReadableStream({ start: (controller) => controller.close() });
  const meter = body[METER];
  if (!meter) return meteredBody(body, maxBytes);
  meter.limit = maxBytes;
  return body;
}
