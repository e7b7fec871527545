import type { NextFunction, Request, Response } from "express";
import { messages } from "~/lib/messages";
import { NO_STORE } from "./cache-policy.server";

const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** TRACE, CONNECT and the WebDAV verbs get a 405 here; fetch's Request cannot even carry some of them. */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  res.status(405).set({ ...NO_STORE, Allow: KNOWN_METHODS.join(", ") }).type("text/plain; charset=utf-8").send(messages.methodNotAllowed);
}
