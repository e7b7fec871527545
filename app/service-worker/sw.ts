/**
 * The site's service worker, served at /sw.js (vite-plugins/service-worker.ts builds it): breaking-news
 * alerts, and reading offline (docs/decisions/038).
 */
import { alertNotification, alertTarget, PUSH_API, pushAlertOf } from "~/lib/push-notification";
import {
  cacheRuleOf,
  isKeptPage,
  MAX_CACHED_MEDIA,
  MAX_CACHED_PAGES,
  MEDIA_CACHE,
  OFFLINE_PAGE_KEY,
  PAGE_TIMEOUT_MS,
  PAGES_CACHE,
  shellCacheName,
  staleCaches,
  storiesToKeep,
  variantsOf,
  type KeptStory,
} from "~/lib/offline-cache-rules";
import { offlinePageHtml } from "./offline-page";
import type { FetchEvent, WorkerScope } from "./worker-scope";

/** Put in by the build: this version's shell (hashed files) and its stylesheets. */
declare const __SHELL__: { version: string; files: string[]; styles: string[] };

const worker = self as unknown as WorkerScope;
const SHELL = shellCacheName(__SHELL__.version);

async function keepTrimmed(
  cacheName: string,
  request: Request | string,
  response: Response,
  most: number,
): Promise<void> {
  const cache = await caches.open(cacheName);
  await cache.delete(request);
  await cache.put(request, response);
  const keys = await cache.keys();
  // Cache keys come back in the order they were put: the oldest first.
  await Promise.all(keys.slice(0, Math.max(0, keys.length - most)).map((key) => cache.delete(key)));
}

const offlinePage = () =>
  new Response(offlinePageHtml(__SHELL__.styles), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });

/** Whether any of the caches holds this address already. */
const held = async (path: string) => (await caches.match(path, { ignoreVary: true })) !== undefined;

/**
 * Keeps the stories a page asked for (lib/offline-cache-rules: storiesToKeep), those not kept yet: their
 * pages first, then each one's picture at the smallest size.
 */
async function keepStories(stories: KeptStory[]): Promise<void> {
  for (const { page } of stories) {
    if (await held(page)) continue;
    const response = await fetch(page);
    if (isKeptPage(response)) await keepTrimmed(PAGES_CACHE, page, response, MAX_CACHED_PAGES);
    else await response.body?.cancel();
  }
  for (const { picture } of stories) {
    if (!picture || (await held(picture))) continue;
    const response = await fetch(picture);
    if (response.ok) await keepTrimmed(MEDIA_CACHE, picture, response, MAX_CACHED_MEDIA);
    else await response.body?.cancel();
  }
}

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then(async (cache) => {
      await cache.addAll(__SHELL__.files);
      await cache.put(OFFLINE_PAGE_KEY, offlinePage());
    }),
  );
});

// A new version waits (no skipWaiting) until no tab runs the old one, so an open page never loses its
// files; once active it drops the old shell, and the pages kept for it, which name the old files.
worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const stale = staleCaches(await caches.keys(), __SHELL__.version);
      await Promise.all(stale.map((name) => caches.delete(name)));
      if (stale.length > 0) await caches.delete(PAGES_CACHE);
      await worker.clients.claim();
    })(),
  );
});

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "late"> {
  return Promise.race([promise, new Promise<"late">((resolve) => setTimeout(() => resolve("late"), ms))]);
}

async function pageFromNetworkFirst(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const fromNetwork = fetch(request);
  // Kept even when the cached copy was shown first; the copy is taken before the page reads the body.
  event.waitUntil(
    fromNetwork
      .then((response) =>
        isKeptPage(response) ? keepTrimmed(PAGES_CACHE, request.url, response.clone(), MAX_CACHED_PAGES) : undefined,
      )
      .catch(() => undefined),
  );
  const kept = caches.match(request.url, { cacheName: PAGES_CACHE, ignoreVary: true });
  try {
    const first = await withTimeout(fromNetwork, PAGE_TIMEOUT_MS);
    if (first !== "late") return first;
    return (await kept) ?? (await fromNetwork);
  } catch {
    return (await kept) ?? (await caches.match(OFFLINE_PAGE_KEY, { cacheName: SHELL })) ?? offlinePage();
  }
}

async function fromCacheFirst(request: Request, cacheName: string, most: number): Promise<Response> {
  const kept = await caches.match(request, { ignoreVary: true });
  if (kept) return kept;
  let response: Response;
  try {
    response = await fetch(request);
  } catch (offline) {
    // A stored picture kept at another size (a story kept ahead keeps its smallest) stands in for this one.
    for (const other of variantsOf(new URL(request.url).pathname)) {
      const stand = await caches.match(other, { cacheName: MEDIA_CACHE, ignoreVary: true });
      if (stand) return stand;
    }
    throw offline;
  }
  if (response.ok && response.type === "basic") await keepTrimmed(cacheName, request, response.clone(), most);
  return response;
}

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  const facts = {
    url: request.url,
    method: request.method,
    mode: request.mode,
    destination: request.destination,
    range: request.headers.has("Range"),
  };
  switch (cacheRuleOf(facts, worker.location.origin)) {
    case "page":
      return event.respondWith(pageFromNetworkFirst(event));
    case "asset":
      return event.respondWith(fromCacheFirst(request, SHELL, Number.POSITIVE_INFINITY));
    case "media":
      return event.respondWith(fromCacheFirst(request, MEDIA_CACHE, MAX_CACHED_MEDIA));
    case "network":
      return;
  }
});

// A page, once its reader's browser is idle, names the stories it leads to (islands/offline-reading).
worker.addEventListener("message", (event) => {
  const stories = storiesToKeep(event.data, worker.location.origin);
  if (stories.length > 0) event.waitUntil(keepStories(stories).catch(() => undefined));
});

worker.addEventListener("push", (event) => {
  const alert = pushAlertOf(event.data?.json());
  if (!alert) return;
  const { title, options } = alertNotification(alert);
  event.waitUntil(worker.registration.showNotification(title, options));
});

/** The page an address shows, its query (as the alert's `utm_source`) and anchor aside. */
const pageOf = (url: string) => url.split(/[?#]/)[0];

/** Focuses a tab already on the story, or opens it; a tab of the site is taken there when no window may open. */
async function openStory(url: string): Promise<void> {
  const tabs = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const onStory = tabs.find((tab) => pageOf(tab.url) === pageOf(url));
  if (onStory) {
    await onStory.focus().catch(() => undefined);
    return;
  }
  const opened = await worker.clients.openWindow(url).catch(() => null);
  if (!opened && tabs[0]) await tabs[0].navigate(url);
}

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = alertTarget(event.notification.data, worker.location.origin);
  if (!target) return;
  const opened = target.opened
    ? fetch(PUSH_API.opened, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(target.opened),
        keepalive: true,
      }).catch(() => undefined)
    : undefined;
  event.waitUntil(Promise.all([openStory(target.url), opened]));
});
