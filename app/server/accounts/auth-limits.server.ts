import { clientKey } from "~/server/platform/client-keys.server";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { lockKeys } from "~/server/db/key-locks.server";
import { accountMessages } from "~/lib/messages";
import { authFailure } from "./auth-errors.server";

/** How many attempts a key may make within its window. */
type Rule = { window: number; max: number };

const MINUTE = 60_000;
/** Wrong passwords for one account from one address: a person mistyping never reaches it. */
export const SIGN_IN_ACCOUNT_RULE: Rule = { window: 15 * MINUTE, max: 10 };
/** Failed sign-ins from one address over every account: a whole office behind one address. */
export const SIGN_IN_ADDRESS_RULE: Rule = { window: 15 * MINUTE, max: 100 };
/** Registrations from one address: a family or a school on one mobile address stays below it. */
export const SIGN_UP_ADDRESS_RULE: Rule = { window: 60 * MINUTE, max: 30 };
/** "Forgot password" for one email, registered or not: a lost mail can be asked for again; an inbox is not flooded. */
export const RESET_EMAIL_RULE: Rule = { window: 60 * MINUTE, max: 3 };
/** "Forgot password" from one address over every email: a whole office, not a sweep of addresses. */
export const RESET_ADDRESS_RULE: Rule = { window: 60 * MINUTE, max: 20 };
const LONGEST_WINDOW = Math.max(...[SIGN_IN_ACCOUNT_RULE, SIGN_IN_ADDRESS_RULE, SIGN_UP_ADDRESS_RULE, RESET_EMAIL_RULE, RESET_ADDRESS_RULE].map((rule) => rule.window));

type Limit = { key: string; rule: Rule };
/** The refusal of an attempt over a limit, saying how many seconds to wait. */
type TooMany = (retryAfterSeconds: number) => AppError;

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
async function admit(db: DB, limits: Limit[], now: number, tooMany: TooMany): Promise<number[]> {
  const admitted = await db.transaction().execute(async (trx) => {
    await lockKeys(trx, limits.map(({ key }) => key));
    const waits = await Promise.all(limits.map((limit) => waitFor(trx, limit, now)));
    const wait = Math.max(...waits);
    if (wait > 0) return { wait, attemptIds: [] };
    await trx.deleteFrom("auth_attempts").where("at", "<=", now - LONGEST_WINDOW).execute();
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

function signInLimits(secret: string, address: string, email: string): Limit[] {
  return [
    { key: clientKey(secret, "sign-in", address, email.trim().toLowerCase()), rule: SIGN_IN_ACCOUNT_RULE },
    { key: clientKey(secret, "sign-in", address), rule: SIGN_IN_ADDRESS_RULE },
  ];
}

/** Before checking a password: counted as a failure unless `forgetAttempt` is called with its rows after a success. */
export function admitSignIn(db: DB, secret: string, address: string, email: string, now = Date.now()): Promise<number[]> {
  return admit(db, signInLimits(secret, address, email), now, (seconds) => authFailure("too-many-requests", seconds));
}

/** A successful sign-in does not count against anyone. */
export async function forgetAttempt(db: DB, attemptIds: number[]): Promise<void> {
  if (attemptIds.length > 0) await db.deleteFrom("auth_attempts").where("id", "in", attemptIds).execute();
}

/** Every registration attempt from an address counts, so it cannot be used to sweep for emails either. */
export function admitSignUp(db: DB, secret: string, address: string, now = Date.now()): Promise<number[]> {
  return admit(db, [{ key: clientKey(secret, "sign-up", address), rule: SIGN_UP_ADDRESS_RULE }], now, (seconds) => authFailure("too-many-sign-ups", seconds));
}

/**
 * Every "forgot password" request counts, for its email and its address, whether or not the email is
 * registered: the limit tells no more than the answer does.
 */
export async function admitResetRequest(db: DB, secret: string, address: string, email: string, now = Date.now()): Promise<void> {
  await admit(
    db,
    [
      { key: clientKey(secret, "reset", email.trim().toLowerCase()), rule: RESET_EMAIL_RULE },
      { key: clientKey(secret, "reset", address), rule: RESET_ADDRESS_RULE },
    ],
    now,
    (retryAfterSeconds) => new AppError("rate-limited", { message: accountMessages.resetTooMany, retryAfterSeconds }),
  );
}
