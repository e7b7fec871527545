import { pipeline } from "node:stream/promises";
import type { Request, RequestHandler, Response } from "express";
import { AppError } from "~/server/platform/app-error.server";
import { logger } from "~/server/platform/logger.server";
import { contentTypeOf, isMediaName, type MediaStorage, type StoredFile } from "~/server/media/storage.server";
import { parseRange } from "./byte-range.server";
import { CACHE } from "~/server/platform/cache-control.server";
import { sendError } from "./error-response.server";

/** The stored name a `/media/...` request asks for (its path below the mount), or null for one we never store. */
function requestedName(req: Request): string | null {
  try {
    const name = decodeURIComponent(req.path.slice(1));
    return isMediaName(name) ? name : null;
  } catch {
    return null; // a malformed %-escape
  }
}

function refuseOtherMethods(req: Request, res: Response): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  res.set("Allow", "GET, HEAD");
  sendError(res, new AppError("method-not-allowed"));
  return true;
}

/** Whether the client's copy is current: names never change content, so a matching ETag or date is enough. */
function notModified(req: Request, file: StoredFile): boolean {
  const tags = req.get("if-none-match");
  if (tags !== undefined)
    return (
      file.etag !== undefined &&
      (tags.trim() === "*" || tags.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag))
    );
  const since = Date.parse(req.get("if-modified-since") ?? "");
  return !Number.isNaN(since) && Math.floor(file.modifiedAt.getTime() / 1000) * 1000 <= since;
}

function setFileHeaders(
  res: Response,
  name: string,
  file: { contentType?: string; etag?: string; modifiedAt?: Date },
): void {
  res.set({
    "Content-Type": file.contentType ?? contentTypeOf(name),
    "Cache-Control": CACHE.media,
    "Accept-Ranges": "bytes",
  });
  if (file.etag) res.set("ETag", file.etag);
  if (file.modifiedAt) res.set("Last-Modified", file.modifiedAt.toUTCString());
}

async function answer(storage: MediaStorage, req: Request, res: Response, name: string): Promise<void> {
  const conditional = req.get("if-none-match") !== undefined || req.get("if-modified-since") !== undefined;
  if (req.method === "HEAD" || conditional) {
    const file = await storage.stat(name);
    if (!file) return sendError(res, new AppError("not-found"));
    setFileHeaders(res, name, file);
    if (conditional && notModified(req, file)) {
      res.status(304).end();
      return;
    }
    if (req.method === "HEAD") {
      res.status(200).set("Content-Length", String(file.size)).end();
      return;
    }
  }
  const read = await storage.read(name, parseRange(req.get("range")) ?? undefined);
  if (read.status === "missing") return sendError(res, new AppError("not-found"));
  if (read.status === "unsatisfiable") {
    res
      .status(416)
      .set({ "Content-Range": `bytes */${read.size}`, "Cache-Control": CACHE.never })
      .end();
    return;
  }
  setFileHeaders(res, name, read);
  const { range } = read;
  if (range) res.status(206).set("Content-Range", `bytes ${range.start}-${range.end}/${read.size}`);
  res.set("Content-Length", String(range ? range.end - range.start + 1 : read.size));
  // A reader who goes away ends the pipeline, which closes the stream from the storage.
  await pipeline(read.body, res).catch(() => undefined);
}

/**
 * `/media/*` served from storage other than the local folder (which express.static serves): GET and
 * HEAD, one byte range (206, or 416 when it starts past the end), 304 for a current copy, a year's
 * caching since a name never changes content; a missing file or a name we never store is a 404, and
 * storage that does not answer a 503.
 */
export function storedMediaHandler(storage: MediaStorage): RequestHandler {
  return async (req, res) => {
    if (refuseOtherMethods(req, res)) return;
    const name = requestedName(req);
    if (!name) return sendError(res, new AppError("not-found"));
    try {
      await answer(storage, req, res, name);
    } catch (error) {
      logger.error({ err: error, name }, "media storage did not answer");
      if (!res.headersSent) sendError(res, new AppError("unavailable"));
      else res.destroy();
    }
  };
}

/**
 * `/media/*` answered by a redirect to the same name under MEDIA_PUBLIC_URL (a CDN or the bucket's
 * public address). A 302, cached for a day: not a 301, which browsers keep for good, so that a new
 * MEDIA_PUBLIC_URL takes effect within a day.
 */
export function publicMediaRedirect(publicUrl: string): RequestHandler {
  return (req, res) => {
    if (refuseOtherMethods(req, res)) return;
    const name = requestedName(req);
    if (!name) return sendError(res, new AppError("not-found"));
    res.set("Cache-Control", CACHE.mediaRedirect).redirect(302, `${publicUrl}/${name}`);
  };
}
