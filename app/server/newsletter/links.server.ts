import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * A reader's links carry a token: the address (base64url) and a keyed hash of it with AUTH_SECRET, so
 * nothing per link is stored and a copied database gives no working link. "confirm" tokens open the
 * confirmation, "manage" tokens the preferences page and the one-click unsubscribe.
 */

export type LinkPurpose = "confirm" | "manage";

const MAC_LENGTH = 22;

function macOf(secret: string, purpose: LinkPurpose, email: string): string {
  return createHmac("sha256", secret).update(`newsletter:${purpose}:${email}`).digest("base64url").slice(0, MAC_LENGTH);
}

export function linkToken(secret: string, purpose: LinkPurpose, email: string): string {
  return `${Buffer.from(email).toString("base64url")}.${macOf(secret, purpose, email)}`;
}

/** The address a token was made for, or null for anything else. */
export function addressOfToken(secret: string, purpose: LinkPurpose, token: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const email = Buffer.from(match[1]!, "base64url").toString("utf8");
  const expected = Buffer.from(macOf(secret, purpose, email));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? email : null;
}

export function confirmLink(baseUrl: string, token: string): string {
  return `${baseUrl}/newsletter/confirm?t=${token}`;
}

export function preferencesLink(baseUrl: string, token: string): string {
  return `${baseUrl}/newsletter/preferences?t=${token}`;
}

/** RFC 8058's target: a POST to it unsubscribes at once, with no cookie, from wherever it comes. */
export const ONE_CLICK_UNSUBSCRIBE_PATH = "/newsletter/one-click";

export function oneClickLink(baseUrl: string, token: string): string {
  return `${baseUrl}${ONE_CLICK_UNSUBSCRIBE_PATH}?t=${token}`;
}
