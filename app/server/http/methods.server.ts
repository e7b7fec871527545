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

/** The host a client asked for (X-Forwarded-Host behind a trusted proxy), without what a URL's host cannot hold after it. */
export function requestedHost(req: Request): string {
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const header = req.app.enabled("trust proxy") ? (req.get("x-forwarded-host") ?? req.get("host")) : req.get("host");
  const port = Number.parseInt(header?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? `${hostname}:${port}` : hostname;
}

/**
 * A Host (or trusted X-Forwarded-Host) that no address can carry, with a space, `<` or `%` in it,
 * names no site: 400 before anything builds the request's URL from it.
 */
export function refuseUnusableHost(req: Request, res: Response, next: NextFunction) {
  if (URL.canParse(`http://${requestedHost(req)}/`)) return next();
  refuse(req, res, new AppError("bad-request"));
}

/** JSON for API callers, the plain Arabic message for everyone else. */
function refuse(req: Request, res: Response, error: AppError): void {
  if (wantsJson(req)) return sendError(res, error);
  res.status(error.status).set(NO_STORE).type("text/plain; charset=utf-8").send(error.message);
}
