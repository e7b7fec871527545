import type { Request, RequestHandler, Response } from "express";
import { hasSession, isCacheablePage, pagePolicy } from "./cache-policy.server";
import { encodedBody, type CachedPage, type PageCache, type RenderedPage } from "./page-cache.server";
import { cspNonceOf } from "./security-headers.server";

const STORED_HEADERS = ["content-type", "cache-control", "vary", "link"];

/**
 * Cache-Control for pages and their data requests, added as the headers go out unless the route
 * chose its own (feeds, JSON); the API sets its own always.
 */
export const pageCachePolicy: RequestHandler = (req, res, next) => {
  if (req.path.startsWith("/api/")) return next();
  const policy = pagePolicy(req.path, hasSession(req.headers.cookie));
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!this.hasHeader("cache-control")) this.setHeader("Cache-Control", policy);
    this.vary("Cookie");
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response["writeHead"];
  next();
};

function sendCached(res: Response, page: CachedPage, ifNoneMatch: string | undefined, acceptEncoding: string) {
  for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
  res.setHeader("ETag", page.etag);
  res.setHeader("X-Cache", "HIT");
  if (ifNoneMatch === page.etag) {
    res.status(304).end();
    return;
  }
  const { body, encoding } = encodedBody(page, acceptEncoding);
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", String(body.length));
  res.status(page.status).end(body);
}

/**
 * Lets the request render, and hands the page to `done` if it is complete, public, cookie-free 200
 * HTML that does not carry this response's script nonce (later readers get other nonces).
 */
function renderInto(req: Request, res: Response, done: (page?: RenderedPage) => void) {
  res.setHeader("X-Cache", "MISS");
  // A reader who hangs up must not leave the others waiting.
  res.once("close", () => done());
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const keep = (chunk: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, ...rest: never[]) => {
    keep(chunk);
    return write(chunk as never, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: never[]) => {
    if (typeof chunk !== "function") keep(chunk);
    // Headers are final once the original end has run.
    const result = end(chunk as never, ...rest);
    const type = String(res.getHeader("content-type") ?? "");
    const policy = String(res.getHeader("cache-control") ?? "");
    const body = Buffer.concat(chunks);
    if (req.method === "GET" && res.statusCode === 200 && type.startsWith("text/html") && policy.startsWith("public") && !res.getHeader("set-cookie") && !body.includes(cspNonceOf(res))) {
      const headers: Record<string, string> = {};
      for (const name of STORED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      done({ status: 200, headers, body });
    } else {
      done();
    }
    return result;
  }) as typeof res.end;
}

/**
 * Serves anonymous page views from the in-process cache; of many readers asking for the same page
 * at once, one renders it and the others get that copy. Signed-in readers never read from it nor
 * write to it.
 */
export function pageCacheMiddleware(cache: PageCache): RequestHandler {
  return (req, res, next) => {
    if (cache.lifetimeMs === 0 || !isCacheablePage(req.method, req.path, hasSession(req.headers.cookie))) return next();
    const key = req.originalUrl;
    const send = (page: CachedPage) => sendCached(res, page, req.headers["if-none-match"], req.headers["accept-encoding"] ?? "");
    const lookup = cache.lookup(key);
    if (lookup.kind === "hit") return send(lookup.page);
    if (lookup.kind === "render") {
      renderInto(req, res, lookup.done);
      return next();
    }
    void lookup.rendered.then(() => {
      const page = cache.get(key);
      // The other render failed or was not cacheable: render for this reader without caching.
      if (page) send(page);
      else next();
    });
  };
}
