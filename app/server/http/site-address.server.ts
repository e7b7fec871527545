import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler } from "express";
import { CACHE } from "~/server/platform/cache-control.server";
import { requestOrigin } from "./methods.server";

/** The hosts (with their ports) of the site's own origins: BASE_URL's, or the loopback ones without it. */
export function siteHostsOf(siteOrigins: readonly string[]): string[] {
  return siteOrigins.map((origin) => new URL(origin).host);
}

/** Whether a request asked for one of the site's own hosts by its Host header alone (before Express). */
export function asksForSiteHost(req: IncomingMessage, siteHosts: readonly string[]): boolean {
  return siteHosts.includes(req.headers.host ?? "");
}

/** Whether the request came through a proxy that TRUST_PROXY trusts: that proxy decides which hosts reach the site. */
function throughTrustedProxy(req: Request): boolean {
  const trusted = req.app.get("trust proxy fn") as ((address: string | undefined, hop: number) => boolean) | undefined;
  return trusted?.(req.socket.remoteAddress, 0) ?? false;
}

/**
 * A page asked for at another of the site's addresses (127.0.0.1 for localhost, an IP for its name)
 * is sent to the same path at the site's own address with a 301: there its forms and sign-in work.
 * Writes are left to the origin check, which tells the reader which address to use.
 */
export function redirectToSiteAddress(siteOrigins: readonly string[]): RequestHandler {
  const siteHosts = siteHostsOf(siteOrigins);
  const siteOrigin = siteOrigins[0] ?? "";
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || throughTrustedProxy(req)) return next();
    const host = new URL(requestOrigin(req)).host;
    if (siteHosts.includes(host)) return next();
    res
      .status(301)
      .set({ Location: `${siteOrigin}${req.originalUrl}`, "Cache-Control": CACHE.siteAddressRedirect })
      .end();
  };
}
