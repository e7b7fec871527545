import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { TrustProxy } from "~/server/platform/config.server";

type Trust = (address: string, hop: number) => boolean;

/** TRUST_PROXY as the function Express and proxy-addr both take: each form read as Express reads it. */
export function proxyTrust(setting: TrustProxy): Trust {
  if (setting === false) return () => false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting);
}

/** A request's client address, for a handler before Express: the socket's, or the one trusted proxies name in X-Forwarded-For. */
export function clientAddress(setting: TrustProxy): (req: IncomingMessage) => string {
  const trust = proxyTrust(setting);
  return (req) => proxyaddr(req, trust);
}
