import { CATEGORIES } from "~/lib/categories";
import { pushMessages as pm } from "~/lib/messages";
import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { isSendableEndpoint } from "./push-addresses.server";

/*
 * Readers' Web Push subscriptions (decision 037): the endpoint, its two keys, the categories chosen
 * beyond breaking (always included) and when. Nothing else about the reader is kept.
 */

const ENDPOINT_MAX = 2048;
// The browser's P-256 public key (an uncompressed point) and its 16-byte auth secret (RFC 8291).
/** base64url of exactly `bytes` bytes (padding allowed), whose first byte, if `first` is given, is that. */
const base64url = (bytes: number, first?: number) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => {
      const decoded = Buffer.from(value, "base64url");
      return decoded.length === bytes && (first === undefined || decoded[0] === first);
    });
const endpoint = z
  .string()
  .max(ENDPOINT_MAX)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  });

const EXTRA_CATEGORIES = CATEGORIES.filter((category) => category !== "breaking" && category !== "advertisement");

const subscribeSchema = z.object({
  subscription: z.object({ endpoint, keys: z.object({ p256dh: base64url(65, 0x04), auth: base64url(16) }) }),
  categories: z.array(z.enum(EXTRA_CATEGORIES)).max(EXTRA_CATEGORIES.length),
});
const unsubscribeSchema = z.object({ endpoint });

function invalid(message: string): AppError {
  return new AppError("validation", { message });
}

/**
 * Stores a subscription, or replaces the categories (and keys) of the same endpoint. Its endpoint
 * must be a push service on the internet (`loopback`: or this machine, for tests).
 */
export async function subscribe(db: DB, body: unknown, now: Date, loopback: boolean): Promise<void> {
  const parsed = subscribeSchema.safeParse(body);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    throw invalid(field === "categories" ? pm.categoriesInvalid : pm.subscriptionInvalid);
  }
  const { subscription, categories } = parsed.data;
  if (!isSendableEndpoint(subscription.endpoint, loopback)) throw invalid(pm.subscriptionInvalid);
  const row = { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, categories: JSON.stringify([...new Set(categories)]) };
  await db
    .insertInto("push_subscriptions")
    .values({ endpoint: subscription.endpoint, ...row, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("endpoint").doUpdateSet(row))
    .execute();
}

/** Deletes the subscription of an endpoint; one not stored is already gone. */
export async function unsubscribe(db: DB, body: unknown): Promise<void> {
  const parsed = unsubscribeSchema.safeParse(body);
  if (!parsed.success) throw invalid(pm.endpointInvalid);
  await db.deleteFrom("push_subscriptions").where("endpoint", "=", parsed.data.endpoint).execute();
}

export type SubscriberCounts = { total: number; byCategory: Record<string, number> };

/** How many subscribe, and how many of them to each category beyond breaking. */
export async function subscriberCounts(db: DB): Promise<SubscriberCounts> {
  const rows = await db.selectFrom("push_subscriptions").select(["categories", (eb) => eb.fn.countAll().as("n")]).groupBy("categories").execute();
  const byCategory: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    total += n;
    for (const category of JSON.parse(row.categories) as string[]) byCategory[category] = (byCategory[category] ?? 0) + n;
  }
  return { total, byCategory };
}
