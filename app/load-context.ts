import "react-router";
import type { Site } from "~/server/site/site.server";

declare module "react-router" {
  interface AppLoadContext {
    /** The whole site as this process holds it (app/server/site/site.server.ts). */
    site: Site;
    /** The client's address (Express req.ip: the socket's, or a trusted proxy's X-Forwarded-For per TRUST_PROXY), for limits and visit counts. */
    clientIp: string;
    /** This response's Content-Security-Policy nonce, for the scripts of pages that hydrate whole. */
    cspNonce: string;
    /** Runs `work` once this response has gone (or its client has left); a failure is logged. */
    afterResponse: (work: () => Promise<void>) => void;
  }
}

export {};
