import type { IncomingMessage, ServerResponse } from "node:http";
import { CACHE } from "~/server/platform/cache-control.server";

/** Options for express.static that send `policy` as the files' Cache-Control. */
export function staticFileCaching(policy: string) {
  return {
    cacheControl: false,
    setHeaders: (res: { setHeader(name: string, value: string): unknown }) => res.setHeader("Cache-Control", policy),
  };
}

type HeadWriter = (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;

/**
 * No error is ever stored, whoever answers it (a route, a refusal, Express itself): every 4xx and 5xx
 * goes out with CACHE.never, whatever Cache-Control was set before. Installed first, so its
 * writeHead runs last, as the head goes out.
 */
export function errorsNeverStored(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const writeHead = res.writeHead as HeadWriter;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (statusCode >= 400) {
      this.setHeader("Cache-Control", CACHE.never);
      const headers = rest.find((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg)) as
        Record<string, unknown> | undefined;
      for (const name of Object.keys(headers ?? {})) if (name.toLowerCase() === "cache-control") delete headers![name];
    }
    return writeHead.call(this, statusCode, ...rest);
  } as ServerResponse["writeHead"];
  next();
}

const PERSONAL_PAGES = /^\/(dashboard|edit-news|autenction|reset-password|sign-out)(\/|$)/;
const SESSION_COOKIE = /(^|;\s*)(__Secure-)?better-auth\.session_token=/;

export function hasSession(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && SESSION_COOKIE.test(cookieHeader);
}

/** The policy for a page (HTML) response. */
export function pagePolicy(path: string, signedIn: boolean): string {
  return signedIn || PERSONAL_PAGES.test(path) ? CACHE.personal : CACHE.publicPage;
}

// Pages have no file extension; files (static, feeds, sitemaps, React Router's .data) do.
const FILE_PATH = /\.[a-z0-9]+$/i;

/** Whether a path names a file (has an extension), not a page. */
export function isFilePath(path: string): boolean {
  return FILE_PATH.test(path);
}

/** Whether an anonymous GET of this path may be served from, and stored in, the page cache. */
export function isCacheablePage(method: string, path: string, signedIn: boolean): boolean {
  return (
    (method === "GET" || method === "HEAD") &&
    !signedIn &&
    !PERSONAL_PAGES.test(path) &&
    !path.startsWith("/api/") &&
    !isFilePath(path)
  );
}
