import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { config } from "./config.server";

export type CachedPage = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  storedAt: number;
  encoded: { br?: Buffer; gzip?: Buffer };
};

const MAX_PAGES = 500;

/**
 * Rendered pages for anonymous readers, kept a few seconds so one server holds a rush on one story.
 * Only the HTTP layer fills it (never with a signed-in response); every article write empties it.
 */
export class PageCache {
  private pages = new Map<string, CachedPage>();

  constructor(
    readonly lifetimeMs: number,
    private maxPages = MAX_PAGES,
  ) {}

  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (now - page.storedAt > this.lifetimeMs) {
      this.pages.delete(key);
      return undefined;
    }
    return page;
  }

  set(key: string, page: Omit<CachedPage, "etag" | "storedAt" | "encoded">, now = Date.now()): CachedPage {
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value as string);
    const stored = { ...page, etag: `"${createHash("sha1").update(page.body).digest("base64url")}"`, storedAt: now, encoded: {} };
    this.pages.set(key, stored);
    return stored;
  }

  clear(): void {
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}

/** The body in the encoding the client prefers, compressed once per cached page. */
export function encodedBody(page: CachedPage, acceptEncoding: string): { body: Buffer; encoding?: "br" | "gzip" } {
  if (/\bbr\b/.test(acceptEncoding)) {
    page.encoded.br ??= brotliCompressSync(page.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
    return { body: page.encoded.br, encoding: "br" };
  }
  if (/\bgzip\b/.test(acceptEncoding)) {
    page.encoded.gzip ??= gzipSync(page.body, { level: 9 });
    return { body: page.encoded.gzip, encoding: "gzip" };
  }
  return { body: page.body };
}

export const pageCache = new PageCache(config().pageCacheSeconds * 1000);
