import { CACHE } from "~/server/platform/cache-control.server";
export const XML_CONTENT_TYPE = "application/xml; charset=utf-8";
export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
export const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";

/** Feeds are the same for everyone and change within minutes. */

export function feedResponse(body: string, contentType: string): Response {
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": CACHE.feed } });
}

export function feedNotFound(message: string): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": TEXT_CONTENT_TYPE, "Cache-Control": CACHE.never },
  });
}
