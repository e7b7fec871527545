import type { NextFunction, Request, Response } from "express";
import { messages } from "~/lib/messages";
import { NO_STORE } from "./cache-policy.server";

const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** TRACE, CONNECT and the WebDAV verbs get a 405 here; fetch's Request cannot even carry some of them. */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.status(405).set({ ...NO_STORE, Allow: KNOWN_METHODS.join(", ") }).type("text/plain; charset=utf-8").send(messages.methodNotAllowed);
}

/**
 * A path carrying a NUL byte names nothing here, and PostgreSQL cannot even compare one with text: 404
 * before any route looks it up.
 */
export function refuseNulInPath(req: Request, res: Response, next: NextFunction) {
  if (!/%00/.test(req.path) && !req.path.includes("\0")) return next();
  res.status(404).set(NO_STORE).type("text/plain; charset=utf-8").send(messages.pageNotFound);
}
