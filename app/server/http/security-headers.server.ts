import { createHash, randomFillSync } from "node:crypto";
import type { RequestHandler, Response } from "express";

/** The only frame a page embeds: article videos from YouTube's privacy-enhanced host (app/lib/video.ts). */
const VIDEO_FRAMES = "https://www.youtube-nocookie.com";

/** The CSP source of one inline script, by the SHA-256 of its exact text. */
function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The Content-Security-Policy of every response. Inline scripts run only by their hash (constant
 * scripts such as the islands loader) or by this response's nonce (React Router's scripts on the
 * pages that hydrate whole); see docs/decisions/008.
 */
function contentSecurityPolicy(
  site: { https: boolean; development: boolean },
  nonce: string | undefined,
  scriptHashes: string[],
): string {
  // Editors may link images and video files from any web address, so those accept any host.
  const anyHost = site.https ? "https:" : "https: http:";
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(nonce === undefined ? [] : [`'nonce-${nonce}'`]), ...scriptHashes].join(" "),
    // The dev server injects each stylesheet as a <style> element, and reloads through its own WebSocket.
    site.development ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    `img-src 'self' ${anyHost}`,
    `media-src 'self' ${anyHost}`,
    // 'self': the newsroom's preview of a newsletter mail, under SANDBOXED_DOCUMENT_POLICY.
    `frame-src 'self' ${VIDEO_FRAMES}`,
    "font-src 'self'",
    // The service worker (/sw.js) that shows alerts and keeps pages for reading offline: docs/decisions/038.
    "worker-src 'self'",
    "manifest-src 'self'",
    site.development ? "connect-src 'self' ws:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(site.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

const NONCE_BYTES = 16;
// Drawn 256 nonces at a time, each used once: one call to the system's generator per response was
// measurable (docs/benchmarks.md#008-content-security-policy).
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

function newNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  nonceOffset += NONCE_BYTES;
  return noncePool.toString("base64", nonceOffset - NONCE_BYTES, nonceOffset);
}

/**
 * The policy of a document shown as it will be read elsewhere (a newsletter mail, with its inline
 * styles): sandboxed, so nothing in it runs, framed by our own pages only. A response that sets it keeps it.
 */
export const SANDBOXED_DOCUMENT_POLICY =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'self'";

/** The nonce the security headers promised for this response's inline scripts. */
export function cspNonceOf(res: Response): string {
  return res.locals.cspNonce as string;
}

export type SecurityHeaderOptions = { baseUrl: string; inlineScripts: string[]; development: boolean };

export type SecurityHeaderSource = {
  /** The headers of one response under a fresh nonce, as [name, value] pairs. */
  fresh: () => { nonce: string; headers: [string, string][] };
  /** The headers of a response that carries no nonce'd script (a cached page): the same every time. */
  nonceless: [string, string][];
};

/** The security headers: everything but the nonce is worked out once, at start. */
export function securityHeaderSource({
  baseUrl,
  inlineScripts,
  development,
}: SecurityHeaderOptions): SecurityHeaderSource {
  const https = new URL(baseUrl).protocol === "https:";
  const site = { https, development };
  const hashes = inlineScripts.map(scriptHash);
  const marker = "\u0000nonce\u0000";
  const [before, after] = contentSecurityPolicy(site, marker, hashes).split(marker) as [string, string];
  const fixed: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ...(https ? [["Strict-Transport-Security", "max-age=31536000"] as [string, string]] : []),
  ];
  return {
    fresh: () => {
      const nonce = newNonce();
      return { nonce, headers: [["Content-Security-Policy", before + nonce + after], ...fixed] };
    },
    nonceless: [["Content-Security-Policy", contentSecurityPolicy(site, undefined, hashes)], ...fixed],
  };
}

/**
 * Sets the security headers on every response, whoever writes it (pages, cached pages, the API,
 * files, Express's own error pages), as its head goes out. Install it first.
 */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const { fresh } = securityHeaderSource(options);
  return (_req, res, next) => {
    const { nonce, headers } = fresh();
    res.locals.cspNonce = nonce;
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      // After anything set before, such as the error handler's own default-src 'none'; a sandboxed document keeps its own.
      const sandboxed = this.getHeader("Content-Security-Policy") === SANDBOXED_DOCUMENT_POLICY;
      for (const [name, value] of headers)
        if (!sandboxed || name !== "Content-Security-Policy") this.setHeader(name, value);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
