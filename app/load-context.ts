import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as our server saw it (Express req.ip), for rate limits. */
    clientIp: string;
    /** This response's Content-Security-Policy nonce, for the scripts of pages that hydrate whole. */
    cspNonce: string;
  }
}

export {};
