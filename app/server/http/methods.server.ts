import type { NextFunction, Request, Response } from "express";
import { AppError } from "~/server/platform/app-error.server";
import { sendRefusal } from "./error-response.server";

const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** TRACE, CONNECT and the WebDAV verbs get a 405 here; fetch's Request cannot even carry some of them. */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.set("Allow", KNOWN_METHODS.join(", "));
  sendRefusal(req, res, new AppError("method-not-allowed"));
}

/** Whether a path, or a part of one, carries a NUL byte, encoded or not. */
export function holdsNul(path: string): boolean {
  return /%00/.test(path) || path.includes("\0");
}

/**
 * A path carrying a NUL byte names nothing here, and PostgreSQL cannot even compare one with text: 404
 * before any route looks it up.
 */
export function refuseNulInPath(req: Request, res: Response, next: NextFunction) {
  if (!holdsNul(req.path)) return next();
  sendRefusal(req, res, new AppError("not-found"));
}

/** The host a client asked for (X-Forwarded-Host behind a trusted proxy), without what a URL's host cannot hold after it. */
export function requestedHost(req: Request): string {
  const hostname = (req.hostname ?? "").split(/[\\/?#@]/)[0] || "localhost";
  const header = req.app.enabled("trust proxy") ? (req.get("x-forwarded-host") ?? req.get("host")) : req.get("host");
  const port = Number.parseInt(header?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? `${hostname}:${port}` : hostname;
}

/** The origin the request was sent to (scheme and requestedHost): the one React Router is given, and compares a write's Origin with. */
export function requestOrigin(req: Request): string {
  return `${req.protocol}://${requestedHost(req)}`;
}

/**
 * A Host (or trusted X-Forwarded-Host) that no address can carry, with a space, `<` or `%` in it,
 * names no site: 400 before anything builds the request's URL from it.
 */
export function refuseUnusableHost(req: Request, res: Response, next: NextFunction) {
  if (URL.canParse(`http://${requestedHost(req)}/`)) return next();
  sendRefusal(req, res, new AppError("bad-request"));
}

/**
 * A target that names no path here (`OPTIONS *`, `GET foo`) gets a 400; absolute-form targets were
 * made paths before (http/request-target).
 */
export function refuseUnusableTarget(req: Request, res: Response, next: NextFunction) {
  if (req.url.startsWith("/")) return next();
  sendRefusal(req, res, new AppError("bad-request"));
}
