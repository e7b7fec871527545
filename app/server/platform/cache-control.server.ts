/** Cache-Control of every kind of response, chosen in one place: every response takes its value from here. */
export const CACHE = {
  publicPage: "public, max-age=0, s-maxage=30, stale-while-revalidate=300",
  feed: "public, max-age=300",
  /** Server-Sent Events: never stored, and never compressed or buffered by a proxy on the way. */
  eventStream: "no-cache, no-transform",
  personal: "private, no-store",
  never: "no-store",
  asset: "public, max-age=31536000, immutable",
  media: "public, max-age=31536000, immutable",
  /** /media/<name> → MEDIA_PUBLIC_URL/<name>: kept a day, so a new public URL takes over within one. */
  mediaRedirect: "public, max-age=86400",
  staticFile: "public, max-age=3600",
  /** /sw.js: checked with the server on every update check, so a new version reaches readers at once. */
  serviceWorker: "no-cache",
  /** Another of the site's addresses → the same path at BASE_URL's: kept a day, like the media redirect. */
  siteAddressRedirect: "public, max-age=86400",
} as const;

/** Headers of responses that must never be stored: writes, counts, the admin API. */
export const NO_STORE = { "Cache-Control": CACHE.never };
