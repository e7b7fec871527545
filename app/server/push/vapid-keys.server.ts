import webpush from "web-push";
import type { DB } from "~/server/db/db.server";

/*
 * The site's VAPID key pair (RFC 8292), made once and shared by every process and instance: one row,
 * inserted if absent (a second inserter's row is dropped by the key), then read back, so processes
 * starting together all end with the pair that was stored first.
 */

export type VapidKeys = { publicKey: string; privateKey: string };

const KEYS_ROW = 1;

export async function siteVapidKeys(db: DB, now: Date): Promise<VapidKeys> {
  const stored = await readKeys(db);
  if (stored) return stored;
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto("push_keys")
    .values({ id: KEYS_ROW, public_key: made.publicKey, private_key: made.privateKey, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const kept = await readKeys(db);
  if (!kept) throw new Error("the VAPID keys could not be stored");
  return kept;
}

async function readKeys(db: DB): Promise<VapidKeys | null> {
  const row = await db
    .selectFrom("push_keys")
    .select(["public_key", "private_key"])
    .where("id", "=", KEYS_ROW)
    .executeTakeFirst();
  return row ? { publicKey: row.public_key, privateKey: row.private_key } : null;
}
