import { createHmac } from "node:crypto";

/**
 * A keyed hash naming a client (its address, with whatever else is counted) in the database: the same
 * parts always give the same key, and without the secret no key leads back to an address.
 */
export function clientKey(secret: string, ...parts: string[]): string {
  return createHmac("sha256", secret).update(parts.join("\0")).digest("base64url");
}
