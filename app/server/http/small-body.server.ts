import type { IncomingMessage } from "node:http";
import { AppError } from "~/server/platform/app-error.server";

/** A request's whole body as text, for a handler before React Router: past `maxBytes` a 413, a broken upload a 400. */
export function readSmallBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) return Promise.reject(new AppError("too-large"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) {
        req.off("data", onData);
        reject(new AppError("too-large"));
      } else chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", () => reject(new AppError("bad-request")));
    req.once("aborted", () => reject(new AppError("bad-request")));
  });
}
