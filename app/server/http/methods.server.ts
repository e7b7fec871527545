import type { NextFunction, Request, Response } from "express";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "./cache-policy.server";
import { sendError, wantsJson } from "./error-response.server";

const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** TRACE, CONNECT and the WebDAV verbs get a 405 here; fetch's Request cannot even carry some of them. */
export function refuseUnknownMethods(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_METHODS.includes(req.method)) return next();
  const error = new AppError("method-not-allowed");
  res.set("Allow", KNOWN_METHODS.join(", "));
  if (wantsJson(req)) return sendError(res, error);
  res.status(error.status).set(NO_STORE).type("text/plain; charset=utf-8").send(error.message);
}
