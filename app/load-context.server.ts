import { createContext, RouterContextProvider } from "react-router";

// What loaders and actions read from their `context`, one key each: `context.get(clientIpContext)`.
// server.ts makes each request's context with the bundle's `requestContext` (entry.server.tsx), so the
// keys it sets are the very ones the routes read (docs/decisions/001).

/** The client's address (Express req.ip: the socket's, or a trusted proxy's X-Forwarded-For per TRUST_PROXY), for limits and visit counts. */
export const clientIpContext = createContext<string>();
/** This response's Content-Security-Policy nonce, for the scripts of pages that hydrate whole. */
export const cspNonceContext = createContext<string>();
/** Runs `work` once this response has gone (or its client has left); a failure is logged. */
export const afterResponseContext = createContext<(work: () => Promise<void>) => void>();

/** What the HTTP layer knows of one request, for the keys above. */
export type RequestValues = { clientIp: string; cspNonce: string; afterResponse: (work: () => Promise<void>) => void };

/** One request's context, for its loaders, actions and render. */
export function requestContext(values: RequestValues): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(clientIpContext, values.clientIp);
  context.set(cspNonceContext, values.cspNonce);
  context.set(afterResponseContext, values.afterResponse);
  return context;
}
