import { clientKey, clientNetwork } from "~/server/platform/client-keys.server";
import type { DB } from "~/server/db/db.server";
import { admit, type Limit, type Rule } from "~/server/limits/attempt-limits.server";
import { AppError } from "~/server/platform/app-error.server";
import { accountMessages } from "~/lib/newsroom-messages";
import { authFailure } from "./auth-errors.server";

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

function signInLimits(secret: string, address: string, email: string): Limit[] {
  return [
    {
      key: clientKey(secret, "sign-in", clientNetwork(address), email.trim().toLowerCase()),
      rule: SIGN_IN_ACCOUNT_RULE,
    },
    { key: clientKey(secret, "sign-in", clientNetwork(address)), rule: SIGN_IN_ADDRESS_RULE },
  ];
}

/** Before checking a password: counted as a failure unless `forgetAttempt` is called with its rows after a success. */
export function admitSignIn(
  db: DB,
  secret: string,
  address: string,
  email: string,
  now = Date.now(),
): Promise<number[]> {
  return admit(db, signInLimits(secret, address, email), now, (seconds) => authFailure("too-many-requests", seconds));
}

/** Every registration attempt from an address counts, so it cannot be used to sweep for emails either. */
export function admitSignUp(db: DB, secret: string, address: string, now = Date.now()): Promise<number[]> {
  return admit(
    db,
    [{ key: clientKey(secret, "sign-up", clientNetwork(address)), rule: SIGN_UP_ADDRESS_RULE }],
    now,
    (seconds) => authFailure("too-many-sign-ups", seconds),
  );
}

/**
 * Every "forgot password" request counts, for its email and its address, whether or not the email is
 * registered: the limit tells no more than the answer does.
 */
export async function admitResetRequest(
  db: DB,
  secret: string,
  address: string,
  email: string,
  now = Date.now(),
): Promise<void> {
  await admit(
    db,
    [
      { key: clientKey(secret, "reset", email.trim().toLowerCase()), rule: RESET_EMAIL_RULE },
      { key: clientKey(secret, "reset", clientNetwork(address)), rule: RESET_ADDRESS_RULE },
    ],
    now,
    (retryAfterSeconds) => new AppError("rate-limited", { message: accountMessages.resetTooMany, retryAfterSeconds }),
  );
}
