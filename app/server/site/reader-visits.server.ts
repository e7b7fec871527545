import type { NextFunction, Request, Response } from "express";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { AppError } from "~/server/platform/app-error.server";
import { sendError } from "~/server/http/error-response.server";
import { acceptView } from "~/server/visits/accept-view.server";
import { parseVisitBody } from "~/server/visits/visit-body.server";
import type { Site } from "./site.server";

const VISIT_PATH = /^\/api\/(?:news\/([^/]+)\/visit|site-visit)$/;
/** The island's body is under 3 KB (a 2,048-character referrer at most). */
const BODY_LIMIT = 4 * 1024;

function bodyOf(req: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) return reject(new AppError("too-large"));
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

/**
 * A reader's visit POST (no session cookie) answered here, after the Origin check and with Express's
 * client address, without React Router's request pipeline: a view is the site's most frequent request
 * (decision 039). Signed-in requests go on to the routes, which know the newsroom.
 */
export function readerVisits(site: Site) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "POST" || (req.get("cookie") ?? "").includes("session_token")) return next();
    const match = VISIT_PATH.exec(req.path);
    if (!match) return next();
    let newsId: string | null = null;
    try {
      newsId = match[1] === undefined ? null : decodeURIComponent(match[1]);
    } catch {
      return next();
    }
    const visitor = { user: null, address: req.ip ?? req.socket.remoteAddress ?? "unknown", userAgent: req.get("user-agent") ?? "", siteHost: req.hostname, at: site.clock.now() };
    void (async () => {
      const body = parseVisitBody(await bodyOf(req), req.get("content-type") ?? "");
      await acceptView(site.db, site.views, visitor, newsId, body);
      res.status(200).set(NO_STORE).json({ ok: true });
    })().catch((error: unknown) => {
      if (error instanceof AppError) sendError(res, error);
      else next(error);
    });
  };
}
