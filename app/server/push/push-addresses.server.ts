import { BlockList, isIP } from "node:net";
import { isLoopbackHost } from "~/server/platform/config.server";

/*
 * A subscription's endpoint is a URL a reader gave, and the server sends to it: only to a push service
 * on the internet, never to this machine or its network (decision 037). The delivery thread checks
 * each address it connects to against the same ranges.
 */

/** Ranges no push service on the internet has: unspecified, loopback, private, shared, link-local, documentation, benchmarking, multicast and reserved. */
export const NON_PUBLIC_SUBNETS: readonly (readonly [network: string, prefix: number, family: "ipv4" | "ipv6"])[] = [
  ["0.0.0.0", 8, "ipv4"],
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.0.2.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["198.51.100.0", 24, "ipv4"],
  ["203.0.113.0", 24, "ipv4"],
  ["224.0.0.0", 3, "ipv4"],
  ["::", 127, "ipv6"],
  ["64:ff9b::", 96, "ipv6"],
  ["100::", 64, "ipv6"],
  ["2001:db8::", 32, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["ff00::", 8, "ipv6"],
];

const nonPublic = new BlockList();
for (const [network, prefix, family] of NON_PUBLIC_SUBNETS) nonPublic.addSubnet(network, prefix, family);

/** Whether `address`, an IP address, may be a push service's on the internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Whether the server may send to `endpoint`: https, at a name or a public address, with no
 * credentials. `loopback` (tests only: TEST_LOOPBACK_PUSH) allows this machine too, over http or https.
 */
export function isSendableEndpoint(endpoint: string, loopback: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password || (url.protocol !== "https:" && url.protocol !== "http:")) return false;
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (loopback && isLoopbackHost(host)) return true;
  if (url.protocol !== "https:" || host === "localhost" || host.endsWith(".localhost")) return false;
  return isIP(host) === 0 || isPublicAddress(host);
}
