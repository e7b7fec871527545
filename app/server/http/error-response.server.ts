import type { ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
// server.ts loads this module before React, which picks its build when first loaded: type imports of react-router only.
import type { ServerBuild } from "react-router";
import type { ErrorCode } from "~/lib/error-body";
import { AppError, appErrorWithin, ERROR_CATALOGUE, errorBody } from "~/server/platform/app-error.server";
import { logger } from "~/server/platform/logger.server";
import { NO_STORE } from "~/server/platform/cache-control.server";

/** Retry-After for an error that says when to try again; nothing otherwise. */
export function retryAfterHeaders(error: AppError): Record<string, string> {
  return error.retryAfterSeconds === undefined ? {} : { "Retry-After": String(error.retryAfterSeconds) };
}

/** An API refusal: the error's status, its JSON body (with `details` beside `error`), never stored, with Retry-After when it has one. */
export function errorResponse(error: AppError, details: Record<string, unknown> = {}): Response {
  return Response.json(
    { ...details, ...errorBody(error) },
    { status: error.status, headers: { ...NO_STORE, ...retryAfterHeaders(error) } },
  );
}

/** Whether an Express request is answered in JSON (the API, or a client that asks for it) rather than a page. */
export function wantsJson(req: ExpressRequest): boolean {
  return req.path.startsWith("/api/") || req.accepts(["html", "json"]) === "json";
}

/** errorResponse for the Express middleware that answer before React Router. */
export function sendError(res: ExpressResponse, error: AppError): void {
  res
    .status(error.status)
    .set({ ...NO_STORE, ...retryAfterHeaders(error) })
    .json(errorBody(error));
}

/** A JSON answer never stored, from a handler before Express, with the security headers Express would have set. */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  securityHeaders: [string, string][],
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of securityHeaders) res.setHeader(name, value);
  res.writeHead(status, { ...NO_STORE, ...headers, "Content-Type": "application/json; charset=utf-8" }).end(body);
}

/** errorResponse for a handler before Express. */
export function writeError(
  res: ServerResponse,
  error: AppError,
  securityHeaders: [string, string][],
  headers: Record<string, string> = {},
): void {
  writeJson(res, error.status, JSON.stringify(errorBody(error)), securityHeaders, {
    ...retryAfterHeaders(error),
    ...headers,
  });
}

/** A refusal before React Router: JSON for API callers, the plain Arabic message for everyone else. */
export function sendRefusal(req: ExpressRequest, res: ExpressResponse, error: AppError): void {
  if (wantsJson(req)) return sendError(res, error);
  res
    .status(error.status)
    .set({ ...NO_STORE, ...retryAfterHeaders(error) })
    .type("text/plain; charset=utf-8")
    .send(error.message);
}

/**
 * Express's last error handler: whatever escaped a middleware is answered in our error model (an
 * AppError as itself, anything else a 500 logged here), never with Express's English page.
 */
export function answerEscapedErrors(
  error: unknown,
  req: ExpressRequest,
  res: ExpressResponse,
  next: (error?: unknown) => void,
): void {
  if (res.headersSent) return next(error);
  const known = appErrorWithin(error) ?? clientErrorOf(error);
  if (!known) logger.error({ err: error, method: req.method, url: req.originalUrl }, "unexpected error");
  sendRefusal(req, res, known ?? new AppError("internal"));
}

/** An HTTP error a middleware passed on (express.static's 404), as the AppError of its status. */
function clientErrorOf(error: unknown): AppError | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== "number" || status < 400 || status >= 500) return undefined;
  const code = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).find((each) => ERROR_CATALOGUE[each].status === status);
  return new AppError(code ?? "bad-request");
}

type RouteFunction = (...args: never[]) => unknown;

function answeringAppErrors<F extends RouteFunction>(run: F): F {
  return (async (...args: Parameters<F>) => {
    try {
      return await run(...args);
    } catch (error) {
      const known = appErrorWithin(error);
      throw known ? errorResponse(known) : error;
    }
  }) as F;
}

/**
 * The build with every loader and action answering an AppError that escapes it (a busy database's
 * 503), or that a library threw wrapped, as errorResponse: resource routes send it as it is, pages
 * render the error page with its status.
 */
export function withAppErrorAnswers(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const { loader, action } = route.module;
      const module = {
        ...route.module,
        loader: loader && answeringAppErrors(loader),
        action: action && answeringAppErrors(action),
      };
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes };
}
