const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request may change anything: safe methods always; others only when the browser says
 * it comes from this site (Origin, or else Sec-Fetch-Site). Non-browser clients send neither.
 */
export function isAllowedOrigin(method: string, headers: { origin?: string; "sec-fetch-site"?: string }, siteOrigin: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const origin = headers.origin;
  if (origin !== undefined) return origin === siteOrigin;
  const site = headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}
