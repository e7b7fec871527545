import { createContext, RouterContextProvider } from "react-router";
import type { Site } from "./site.server";

// What loaders and actions read from their `context`, one key each: `context.get(siteContext)`.
// React Router knows a key by identity; the bundle makes every request's context (site/http-app), so
// the keys set are the very ones the routes read.

/** The whole site as this process holds it (site.server.ts). */
export const siteContext = createContext<Site>();
/** The client's address (Express req.ip: the socket's, or a trusted proxy's X-Forwarded-For per TRUST_PROXY), for limits and visit counts. */
export const clientIpContext = createContext<string>();
/** This response's Content-Security-Policy nonce, for the scripts of pages that hydrate whole. */
export const cspNonceContext = createContext<string>();
/** Runs `work` once this response has gone (or its client has left); a failure is logged. */
export const afterResponseContext = createContext<(work: () => Promise<void>) => void>();

/** What one request's loaders, actions and render read, for the keys above. */
export type RequestValues = {
  site: Site;
  clientIp: string;
  cspNonce: string;
  afterResponse: (work: () => Promise<void>) => void;
};

export function requestContext(values: RequestValues): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(siteContext, values.site);
  context.set(clientIpContext, values.clientIp);
  context.set(cspNonceContext, values.cspNonce);
  context.set(afterResponseContext, values.afterResponse);
  return context;
}
