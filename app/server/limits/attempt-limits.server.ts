import type { DB } from "~/server/db/db.server";
import { lockKeys } from "~/server/db/key-locks.server";
import type { AppError } from "~/server/platform/app-error.server";

/*
 * Attempts counted per client, for every limit of the site (decision 005): a row per attempt in
 * `auth_attempts` under a keyed hash (platform/client-keys), never the address itself.
 */

/** How many attempts a key may make within its window. */
export type Rule = { window: number; max: number };
export type Limit = { key: string; rule: Rule };
/** The refusal of an attempt over a limit, saying how many seconds to wait. */
export type TooMany = (retryAfterSeconds: number) => AppError;

const MINUTE = 60_000;
/** No rule looks further back: older attempts are deleted as new ones arrive. */
export const LONGEST_WINDOW = 60 * MINUTE;

/** Milliseconds until the key is under its limit again; 0 when it is under already. */
async function waitFor(db: DB, { key, rule }: Limit, now: number): Promise<number> {
  const recent = await db
    .selectFrom("auth_attempts")
    .select("at")
    .where("key", "=", key)
    .where("at", ">", now - rule.window)
    .orderBy("at", "desc")
    .limit(rule.max)
    .execute();
  const oldestThatCounts = recent[rule.max - 1];
  return oldestThatCounts ? oldestThatCounts.at + rule.window - now : 0;
}

/**
 * Checks every limit and, when all allow it, records the attempt under each key in the same
 * transaction, holding the keys, so concurrent attempts cannot all slip under a limit together.
 * Returns the attempt's rows; over a limit, throws `tooMany`'s refusal.
 */
export async function admit(db: DB, limits: Limit[], now: number, tooMany: TooMany): Promise<number[]> {
  if (limits.some(({ rule }) => rule.window > LONGEST_WINDOW))
    throw new Error("a limit's window is longer than the attempts are kept");
  const admitted = await db.transaction().execute(async (trx) => {
    await lockKeys(
      trx,
      limits.map(({ key }) => key),
    );
    const waits = await Promise.all(limits.map((limit) => waitFor(trx, limit, now)));
    const wait = Math.max(...waits);
    if (wait > 0) return { wait, attemptIds: [] };
    await trx
      .deleteFrom("auth_attempts")
      .where("at", "<=", now - LONGEST_WINDOW)
      .execute();
    const rows = await trx
      .insertInto("auth_attempts")
      .values(limits.map(({ key }) => ({ key, at: now })))
      .returning("id")
      .execute();
    return { wait: 0, attemptIds: rows.map((row) => row.id) };
  });
  if (admitted.wait > 0) throw tooMany(Math.ceil(admitted.wait / 1000));
  return admitted.attemptIds;
}

/** A successful attempt that should not count against anyone (a right password) is forgotten again. */
export async function forgetAttempt(db: DB, attemptIds: number[]): Promise<void> {
  if (attemptIds.length > 0) await db.deleteFrom("auth_attempts").where("id", "in", attemptIds).execute();
}
