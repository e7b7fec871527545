import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * Each delivery's payload carries a token (decision 037): its delivery's number and a keyed hash of
 * it with its alert's. An open is counted only with a token the site made, and once per token.
 */

const TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/;

function mac(secret: string, alertId: number, deliveryId: number): string {
  return createHmac("sha256", secret).update(`push-open\0${alertId}\0${deliveryId}`).digest("base64url").slice(0, 22);
}

/** The token of delivery `deliveryId` of alert `alertId`. */
export function openToken(secret: string, alertId: number, deliveryId: number): string {
  return `${deliveryId}.${mac(secret, alertId, deliveryId)}`;
}

/** The alert's payload as one delivery sends it: with that delivery's token. */
export function payloadWithToken(payload: string, token: string): string {
  return JSON.stringify({ ...(JSON.parse(payload) as object), open: token });
}

/** The delivery a token of alert `alertId` names, or null when the site did not make it. */
export function deliveryOfToken(secret: string, alertId: number, token: string): number | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const deliveryId = Number(match[1]);
  const expected = Buffer.from(mac(secret, alertId, deliveryId));
  return timingSafeEqual(Buffer.from(match[2]!), expected) ? deliveryId : null;
}
