/**
 * Two stand-ins for the site's origin. A path resolves against either one to that one; a target that
 * names a host (`//host`, `/\host`, `/<tab>/host`) cannot name both, so it keeps neither.
 */
const SITE = "https://site.invalid";
const ELSEWHERE = "https://elsewhere.invalid";

function keepsOrigin(target: string, origin: string): URL | null {
  try {
    const url = new URL(target, origin);
    return url.origin === origin ? url : null;
  } catch {
    return null;
  }
}

/**
 * `target` as a path of this site (path, query and hash, normalised as a browser resolves it), or null
 * when a browser could leave the site by it: another origin, scheme-relative, or a path that only
 * normalises to scheme-relative (`/.//host`, `/%2e%2e//host`).
 */
export function sameOriginPath(target: unknown): string | null {
  if (typeof target !== "string" || !target.startsWith("/")) return null;
  const url = keepsOrigin(target, SITE);
  if (!url || !keepsOrigin(target, ELSEWHERE) || url.pathname.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where to go after an action: the path asked for when it is this site's, otherwise home. */
export function safeRedirect(target: unknown): string {
  return sameOriginPath(target) ?? "/";
}
