import { IMAGE_WIDTHS, variantUrl } from "./images";

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
export function isKeptPage(response: {
  ok: boolean;
  status: number;
  type: string;
  headers: { get(name: string): string | null };
}): boolean {
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

/**
 * The stories a page asks the worker to keep for reading offline, once the reader's browser is idle:
 * the first few it links to, the ones a reader is likely to open next (docs/decisions/038).
 */
export const MAX_KEPT_STORIES = 3;
export type KeptStory = { page: string; picture: string | null };
export type KeepStories = { kind: "keep-stories"; stories: KeptStory[] };

/** What a connection tells of itself (navigator.connection, where the browser has it). */
export type ConnectionFacts = { saveData?: boolean; type?: string };

/** A reader's data is spent ahead of them only on a connection that neither asks to save it nor says it is cellular. */
export function mayFetchAhead(connection: ConnectionFacts | undefined): boolean {
  return connection?.saveData !== true && connection?.type !== "cellular";
}

const STORY_PAGE = /^\/news\/[^/?#]+(?:\/[^/?#]+)?$/;
const STORED_VARIANT = /^(\/media\/news-images\/[^/]+)-\d+w\.webp$/;

/** Every size of a stored picture (a variant of lib/images), the smallest first; empty for any other address. */
export function variantsOf(path: string): string[] {
  const base = STORED_VARIANT.exec(path)?.[1];
  return base ? [...IMAGE_WIDTHS].sort((a, b) => a - b).map((width) => variantUrl(base, width)) : [];
}

/**
 * The stories of a page's message the worker keeps: story pages of this site, each with its picture
 * at the smallest size (the page shows it larger, and offline any size kept stands in), at most
 * MAX_KEPT_STORIES; nothing for any other message.
 */
export function storiesToKeep(message: unknown, origin: string): KeptStory[] {
  if (
    typeof message !== "object" ||
    message === null ||
    (message as KeepStories).kind !== "keep-stories" ||
    !Array.isArray((message as KeepStories).stories)
  )
    return [];
  const path = (value: unknown) => {
    if (typeof value !== "string") return null;
    try {
      const url = new URL(value, origin);
      return url.origin === origin ? url.pathname : null;
    } catch {
      return null;
    }
  };
  const kept: KeptStory[] = [];
  for (const story of (message as KeepStories).stories) {
    const page = path((story as KeptStory | null)?.page);
    if (!page || !STORY_PAGE.test(page) || kept.some((k) => k.page === page)) continue;
    const picture = variantsOf(path((story as KeptStory).picture) ?? "")[0] ?? null;
    kept.push({ page, picture });
    if (kept.length === MAX_KEPT_STORIES) break;
  }
  return kept;
}
