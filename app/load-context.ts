import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as our server saw it (Express req.ip), for rate limits. */
    clientIp: string;
  }
}

export {};
