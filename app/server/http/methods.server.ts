import type { NextFunction, Request, Response } from "express";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "./cache-policy.server";
import { sendError, wantsJson } from "./error-response.server";

const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** TRACE, CONNECT and the WebDAV verbs get a 405 here; fetch's Request cannot even carry some of them. */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.set("Allow", KNOWN_METHODS.join(", "));
  refuse(req, res, new AppError("method-not-allowed"));
}

/**
 * A path carrying a NUL byte names nothing here, and PostgreSQL cannot even compare one with text: 404
 * before any route looks it up.
 */
export function refuseNulInPath(req: Request, res: Response, next: NextFunction) {
  if (!/%00/.test(req.path) && !req.path.includes("\0")) return next();
  refuse(req, res, new AppError("not-found"));
}

/** JSON for API callers, the plain Arabic message for everyone else. */
function refuse(req: Request, res: Response, error: AppError): void {
  if (wantsJson(req)) return sendError(res, error);
  res.status(error.status).set(NO_STORE).type("text/plain; charset=utf-8").send(error.message);
}
