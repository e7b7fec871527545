/**
 * Which of the service worker's ways each request takes (docs/decisions/038): pages network first,
 * hashed files and stored media from the cache first, everything else straight to the network.
 */
export type CacheRule = "page" | "asset" | "media" | "network";

export type RequestFacts = { url: string; method: string; mode: string; destination: string; range: boolean };

/** A page the network has not answered within this long is shown from the cache, when it holds one. */
export const PAGE_TIMEOUT_MS = 3_000;
/** The most pages and media files kept for reading offline; the oldest go first. */
export const MAX_CACHED_PAGES = 60;
export const MAX_CACHED_MEDIA = 150;
/** Where the offline page is kept in the shell cache; no route answers it. */
export const OFFLINE_PAGE_KEY = "/offline-page";

export const CACHE_PREFIX = "akhbar-";
export const shellCacheName = (version: string) => `${CACHE_PREFIX}shell-${version}`;
export const PAGES_CACHE = `${CACHE_PREFIX}pages`;
export const MEDIA_CACHE = `${CACHE_PREFIX}media`;

export function cacheRuleOf(request: RequestFacts, origin: string): CacheRule {
  if (request.method !== "GET" || request.range) return "network";
  const url = new URL(request.url);
  if (url.origin !== origin) return "network";
  if (url.pathname.startsWith("/api/") || url.pathname === "/sw.js") return "network";
  if (request.mode === "navigate") return "page";
  if (url.pathname.startsWith("/assets/")) return "asset";
  if (url.pathname.startsWith("/media/") && request.destination === "image") return "media";
  return "network";
}

/** Only pages every reader gets alike are kept: never a signed-in page, an error or a redirect. */
export function isKeptPage(response: { ok: boolean; status: number; type: string; headers: { get(name: string): string | null } }): boolean {
  if (!response.ok || response.status !== 200 || response.type !== "basic") return false;
  const cacheControl = response.headers.get("Cache-Control") ?? "";
  if (/\b(no-store|private)\b/.test(cacheControl)) return false;
  return (response.headers.get("Content-Type") ?? "").startsWith("text/html");
}

/** The caches an activating version removes: every one of ours but its own shell and the runtime caches. */
export function staleCaches(names: string[], version: string): string[] {
  const kept = new Set([shellCacheName(version), PAGES_CACHE, MEDIA_CACHE]);
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && !kept.has(name));
}
