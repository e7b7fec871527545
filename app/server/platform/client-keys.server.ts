import { createHmac } from "node:crypto";
import { isIP } from "node:net";

/**
 * A keyed hash naming a client (its address, with whatever else is counted) in the database: the same
 * parts always give the same key, and without the secret no key leads back to an address.
 */
export function clientKey(secret: string, ...parts: string[]): string {
  return createHmac("sha256", secret).update(parts.join("\0")).digest("base64url");
}

/** An IPv6 address's eight 16-bit groups. */
function groupsOf(address: string): number[] {
  const hex = address
    .replace(/%.*$/, "")
    .replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
      (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
    );
  const [head = "", tail] = hex.split("::");
  const [before, after] = [head, tail ?? ""].map((part) => (part ? part.split(":") : []));
  const missing = tail === undefined ? [] : Array<string>(8 - before!.length - after!.length).fill("0");
  return [...before!, ...missing, ...after!].map((group) => parseInt(group, 16));
}

/**
 * The client an address stands for in a limit: an IPv4 address itself (also as IPv6 maps it), an IPv6
 * address its /64, the least a subscriber is given and free to take any address of.
 */
export function clientNetwork(address: string): string {
  if (isIP(address.replace(/%.*$/, "")) !== 6) return address;
  const groups = groupsOf(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return groups
      .slice(6)
      .flatMap((group) => [group >> 8, group & 0xff])
      .join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
