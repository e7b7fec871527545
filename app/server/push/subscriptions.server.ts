import { ECDH } from "node:crypto";
import { CATEGORIES } from "~/lib/categories";
import { PUSH_SUBSCRIPTIONS_MAX, PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR } from "~/lib/constants";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import { lockKeys } from "~/server/db/key-locks.server";
import { admit } from "~/server/limits/attempt-limits.server";
import { AppError } from "~/server/platform/app-error.server";
import { clientKey, clientNetwork } from "~/server/platform/client-keys.server";
import { isSendableEndpoint } from "./push-addresses.server";

/*
 * Readers' Web Push subscriptions (decision 037): the endpoint, its two keys, the categories chosen
 * beyond breaking (always included) and when. Nothing else about the reader is kept. Each address may
 * subscribe a bounded number of times an hour, and the site keeps a bounded number in all.
 */

const ENDPOINT_MAX = 2048;
const SUBSCRIBE_ADDRESS_RULE = { window: 3_600_000, max: PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR };
/** Held while a new subscription is counted against the total and stored, so two cannot both take the last place. */
const TOTAL_LOCK = "push-subscriptions-total";
/** When a site that is full may have room again: push services report gone subscriptions as alerts go out. */
const FULL_RETRY_AFTER_S = 3600;

// The browser's P-256 public key (an uncompressed point) and its 16-byte auth secret (RFC 8291).
/** base64url of exactly `bytes` bytes (padding allowed) that `valid`, if given, accepts. */
const base64url = (bytes: number, valid: (decoded: Buffer) => boolean = () => true) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => {
      const decoded = Buffer.from(value, "base64url");
      return decoded.length === bytes && valid(decoded);
    });

/** Whether `point` is an uncompressed point on P-256: a key web-push can encrypt to. */
function isP256Point(point: Buffer): boolean {
  if (point[0] !== 0x04) return false;
  try {
    ECDH.convertKey(point, "prime256v1");
    return true;
  } catch {
    return false;
  }
}
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
  subscription: z.object({ endpoint, keys: z.object({ p256dh: base64url(65, isP256Point), auth: base64url(16) }) }),
  categories: z.array(z.enum(EXTRA_CATEGORIES)).max(EXTRA_CATEGORIES.length),
});
const unsubscribeSchema = z.object({ endpoint });

function invalid(message: string): AppError {
  return new AppError("validation", { message });
}

/** Who subscribes and when: `secret` keys the address's count; `loopback` (tests only) allows this machine as a push service. */
export type Subscribing = { db: DB; secret: string; address: string; now: Date; loopback: boolean };

/** The message a refused subscription gets: its keys, its categories, or the rest of it. */
function refusalOf(error: z.ZodError): string {
  const [field, , key] = error.issues[0]?.path ?? [];
  if (field === "categories") return pm.categoriesInvalid;
  return key === "p256dh" || key === "auth" ? pm.keysInvalid : pm.subscriptionInvalid;
}

/**
 * Stores a subscription, or replaces the categories (and keys) of the same endpoint. Its endpoint
 * must be a push service on the internet (`loopback`: or this machine, for tests), its keys ones a
 * message can be encrypted to; past the address's limit it is a 429, a new one past the total a 503.
 */
export async function subscribe({ db, secret, address, now, loopback }: Subscribing, body: unknown): Promise<void> {
  const parsed = subscribeSchema.safeParse(body);
  if (!parsed.success) throw invalid(refusalOf(parsed.error));
  const { subscription, categories } = parsed.data;
  if (!isSendableEndpoint(subscription.endpoint, loopback)) throw invalid(pm.subscriptionInvalid);
  const tooMany = (retryAfterSeconds: number) =>
    new AppError("rate-limited", { message: pm.subscribeTooMany, retryAfterSeconds });
  await admit(
    db,
    [{ key: clientKey(secret, "push-subscribe", clientNetwork(address)), rule: SUBSCRIBE_ADDRESS_RULE }],
    now.getTime(),
    tooMany,
  );
  const row = {
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    categories: JSON.stringify([...new Set(categories)]),
  };
  await db.transaction().execute(async (trx) => {
    await lockKeys(trx, [TOTAL_LOCK]);
    const known = await trx
      .selectFrom("push_subscriptions")
      .select("endpoint")
      .where("endpoint", "=", subscription.endpoint)
      .executeTakeFirst();
    if (!known) {
      const { n } = await trx
        .selectFrom("push_subscriptions")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      if (Number(n) >= PUSH_SUBSCRIPTIONS_MAX)
        throw new AppError("unavailable", { message: pm.subscriptionsFull, retryAfterSeconds: FULL_RETRY_AFTER_S });
    }
    await trx
      .insertInto("push_subscriptions")
      .values({ endpoint: subscription.endpoint, ...row, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("endpoint").doUpdateSet(row))
      .execute();
  });
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
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["categories", (eb) => eb.fn.countAll().as("n")])
    .groupBy("categories")
    .execute();
  const byCategory: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    const n = Number(row.n);
    total += n;
    for (const category of JSON.parse(row.categories) as string[])
      byCategory[category] = (byCategory[category] ?? 0) + n;
  }
  return { total, byCategory };
}
