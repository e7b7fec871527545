import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { hasSession, isCacheablePage, pagePolicy } from "./cache-policy.server";
import { encodedBody, type CachedPage, type PageCache, type RenderedPage } from "./page-cache.server";
import { cspNonceOf } from "./security-headers.server";
import { onWholeBody } from "./whole-response.server";

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

/** A cached page's headers but for its encoding and length; `extra`: headers it would otherwise have got on its way through Express. */
function hitHeaders(page: CachedPage, extra: [string, string][] = []): Record<string, string> {
  const headers: Record<string, string> = { ...page.headers, ETag: page.etag, "X-Cache": "HIT" };
  for (const [name, value] of extra) headers[name] = value;
  return headers;
}

/** Sends a cached page (or 304 to its ETag) with every header it was rendered with, in one write. */
function sendCached(req: IncomingMessage, res: ServerResponse, page: CachedPage) {
  const headers = hitHeaders(page);
  if (req.headers["if-none-match"] === page.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const { body, encoding } = encodedBody(page, req.headers["accept-encoding"]);
  if (encoding) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(body.length);
  res.writeHead(page.status, headers).end(req.method === "HEAD" ? undefined : body);
}

/**
 * Lets the request render, and hands the page to `done` if it is complete, public, cookie-free 200
 * HTML that does not carry this response's script nonce (later readers get other nonces), with the
 * encoded copy this response was sent in.
 */
function renderInto(req: Request, res: Response, done: (page?: RenderedPage) => void) {
  res.setHeader("X-Cache", "MISS");
  // A reader who hangs up must not leave the others waiting.
  res.once("close", () => done());
  onWholeBody(res, ({ body, encoding, encoded }) => {
    const type = String(res.getHeader("content-type") ?? "");
    const policy = String(res.getHeader("cache-control") ?? "");
    if (
      req.method === "GET" &&
      res.statusCode === 200 &&
      type.startsWith("text/html") &&
      policy.startsWith("public") &&
      !res.getHeader("set-cookie") &&
      !body.includes(cspNonceOf(res))
    ) {
      const headers: Record<string, string> = {};
      for (const name of STORED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      done({ status: 200, headers, body, encoded: encoding && encoded ? { [encoding]: encoded } : {} });
    } else {
      done();
    }
  });
}

/** A hit's whole answer, put together once: its status, its headers as writeHead's flat list, its body. */
type PreparedHit = { status: number; headers: string[]; body: Buffer };

/** Distinct Accept-Encoding values kept per page: browsers send a handful; past this, a value is worked out again. */
const ENCODINGS_KEPT = 16;

/**
 * Cache hits before Express: a GET or HEAD without a body or a session, for a page the cache holds,
 * is answered here with the page's stored headers and the security headers of a response without a
 * nonce (a stored page holds none). Each page's answer is put together once per Accept-Encoding value,
 * so a hit allocates nothing of its own. Returns false, having sent nothing, for every other request.
 */
export function pageCacheHits(
  cache: PageCache,
  securityHeaders: [string, string][],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const prepared = new WeakMap<CachedPage, Map<string | undefined, PreparedHit>>();
  const prepare = (page: CachedPage, acceptEncoding: string | undefined): PreparedHit => {
    let byAcceptEncoding = prepared.get(page);
    if (!byAcceptEncoding) prepared.set(page, (byAcceptEncoding = new Map()));
    let hit = byAcceptEncoding.get(acceptEncoding);
    if (!hit) {
      const { body, encoding } = encodedBody(page, acceptEncoding);
      const headers = hitHeaders(page, securityHeaders);
      if (encoding) headers["Content-Encoding"] = encoding;
      headers["Content-Length"] = String(body.length);
      // Names in lower case: Node lower-cases each name it must recognise, on every response, unless it already is.
      hit = {
        status: page.status,
        headers: Object.entries(headers).flatMap(([name, value]) => [name.toLowerCase(), value]),
        body,
      };
      if (byAcceptEncoding.size < ENCODINGS_KEPT) byAcceptEncoding.set(acceptEncoding, hit);
    }
    return hit;
  };
  return (req, res) => {
    if (cache.lifetimeMs === 0 || (req.method !== "GET" && req.method !== "HEAD")) return false;
    const headers = req.headers;
    if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false;
    // Only cacheable addresses are ever stored, under their whole URL (Express's originalUrl).
    const page = cache.peek(req.url ?? "");
    if (!page || hasSession(headers.cookie)) return false;
    if (headers["if-none-match"] === page.etag) {
      res.writeHead(304, hitHeaders(page, securityHeaders)).end();
      return true;
    }
    const hit = prepare(page, headers["accept-encoding"]);
    res.writeHead(hit.status, hit.headers).end(req.method === "HEAD" ? undefined : hit.body);
    return true;
  };
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
    const send = (page: CachedPage) => sendCached(req, res, page);
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
