import { BlockList, isIP } from "node:net";
import { isLoopbackHost } from "~/server/platform/loopback.server";

/*
 * A subscription's endpoint is a URL a reader gave, and the server sends to it: only to a push service
 * on the internet, never to this machine or its network (decision 037). The delivery thread checks
 * each endpoint, and each address a name resolves to, here.
 */

type Subnet = readonly [network: string, prefix: number, family: "ipv4" | "ipv6"];

/** IPv4 ranges no push service on the internet has: unspecified, loopback, private, shared, link-local, documentation, benchmarking, multicast and reserved. */
const NON_PUBLIC_IPV4: readonly Subnet[] = [
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
];

/** The same for IPv6's own addresses: unspecified, loopback, discard, documentation, unique local, link-local, multicast. */
const NON_PUBLIC_IPV6: readonly Subnet[] = [
  ["::", 127, "ipv6"],
  ["100::", 64, "ipv6"],
  ["2001:db8::", 32, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
  ["ff00::", 8, "ipv6"],
];

/**
 * IPv6 prefixes that carry an IPv4 address, and the bit where it starts: IPv4-compatible, IPv4-mapped,
 * IPv4-translated, NAT64's well-known prefix (RFC 6052: what DNS64 answers on an IPv6-only host) and
 * 6to4. Such an address is as public as the IPv4 address it carries.
 */
const IPV4_CARRIERS: readonly (readonly [prefix: number[], at: number])[] = [
  [[0, 0, 0, 0, 0, 0], 96],
  [[0, 0, 0, 0, 0, 0xffff], 96],
  [[0, 0, 0, 0, 0xffff, 0], 96],
  [[0x64, 0xff9b, 0, 0, 0, 0], 96],
  [[0x2002], 16],
];

/** The IPv6 subnet of the addresses in which `carrier` holds an address of the IPv4 subnet `network`/`prefix`. */
function carried([groups, at]: (typeof IPV4_CARRIERS)[number], [network, prefix]: Subnet): Subnet {
  const [a, b, c, d] = network.split(".").map(Number) as [number, number, number, number];
  const address = [...groups, (a << 8) | b, (c << 8) | d];
  return [
    `${address.map((group) => group.toString(16)).join(":")}${address.length < 8 ? "::" : ""}`,
    at + prefix,
    "ipv6",
  ];
}

/** Every range no push service on the internet has, IPv4 ones also as IPv6 carries them. */
const NON_PUBLIC_SUBNETS: readonly Subnet[] = [
  ...NON_PUBLIC_IPV4,
  ...NON_PUBLIC_IPV6,
  ...IPV4_CARRIERS.flatMap((carrier) => NON_PUBLIC_IPV4.map((subnet) => carried(carrier, subnet))),
];

const nonPublic = new BlockList();
for (const [network, prefix, family] of NON_PUBLIC_SUBNETS) nonPublic.addSubnet(network, prefix, family);

/** Whether `address`, an IP address, may be a push service's on the internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Whether the server may connect to `address`, an IP address: a public one, or with `loopback` (tests only) this machine's too. */
export function isSendableAddress(address: string, loopback: boolean): boolean {
  return (loopback && isLoopbackHost(address.replace(/^::ffff:/i, ""))) || isPublicAddress(address);
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
