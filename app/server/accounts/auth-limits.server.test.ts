import { afterEach, beforeEach, expect, it } from "vitest";
import { accountMessages } from "~/lib/newsroom-messages";
import { createTempDatabase } from "../../../harness/temp-db";
import {
  admitResetRequest,
  admitSignIn,
  admitSignUp,
  RESET_ADDRESS_RULE,
  RESET_EMAIL_RULE,
  SIGN_IN_ACCOUNT_RULE,
  SIGN_IN_ADDRESS_RULE,
  SIGN_UP_ADDRESS_RULE,
} from "./auth-limits.server";
import type { DB } from "~/server/db/db.server";
import { forgetAttempt } from "~/server/limits/attempt-limits.server";
import { AppError } from "~/server/platform/app-error.server";

const SECRET = "limits-secret-limits-secret-limits-secret";
const OFFICE = "198.51.100.20";
let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

/** The limit's refusal, or null when the attempt was admitted. */
async function refusalOf(attempt: Promise<unknown>): Promise<AppError | null> {
  try {
    await attempt;
    return null;
  } catch (error) {
    if (AppError.is(error) && error.code === "rate-limited") return error;
    throw error;
  }
}

const admitted = async (attempt: Promise<unknown>) => (await refusalOf(attempt)) === null;

async function fail(address: string, email: string, now: number) {
  return admitted(admitSignIn(db, SECRET, address, email, now));
}

it("locks one account on one address after its failures, and lets it in again when the window has passed", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ACCOUNT_RULE.max; i++) expect(await fail(OFFICE, "sara@example.com", now + i)).toBe(true);
  const locked = await refusalOf(admitSignIn(db, SECRET, OFFICE, "Sara@Example.com ", now + 100));
  expect(locked).toMatchObject({
    code: "rate-limited",
    reason: "too-many-requests",
    retryAfterSeconds: SIGN_IN_ACCOUNT_RULE.window / 1000,
  });
  expect(await admitted(admitSignIn(db, SECRET, OFFICE, "omar@example.com", now + 100))).toBe(true);
  expect(await admitted(admitSignIn(db, SECRET, "203.0.113.9", "sara@example.com", now + 100))).toBe(true);
  expect(await admitted(admitSignIn(db, SECRET, OFFICE, "sara@example.com", now + SIGN_IN_ACCOUNT_RULE.window))).toBe(
    true,
  );
});

it("does not count sign-ins that succeeded", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ACCOUNT_RULE.max * 3; i++) {
    await forgetAttempt(db, await admitSignIn(db, SECRET, OFFICE, "sara@example.com", now + i));
  }
});

it("caps failures from one address over many accounts, well above one person's", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ADDRESS_RULE.max; i++)
    expect(await fail(OFFICE, `staff${i}@example.com`, now)).toBe(true);
  expect(await fail(OFFICE, "one-more@example.com", now)).toBe(false);
});

it("lets a school register its class from one address, then says to wait", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_UP_ADDRESS_RULE.max; i++)
    expect(await admitted(admitSignUp(db, SECRET, OFFICE, now + i * 1000))).toBe(true);
  expect(await refusalOf(admitSignUp(db, SECRET, OFFICE, now + 60_000))).toMatchObject({
    code: "rate-limited",
    reason: "too-many-sign-ups",
  });
  expect(await admitted(admitSignUp(db, SECRET, OFFICE, now + SIGN_UP_ADDRESS_RULE.window))).toBe(true);
});

it("stores no address or email, and forgets attempts older than every window", async () => {
  const now = Date.UTC(2026, 2, 1);
  await fail(OFFICE, "sara@example.com", now);
  await admitSignUp(db, SECRET, OFFICE, now);
  const rows = await db.selectFrom("auth_attempts").selectAll().execute();
  expect(rows).toHaveLength(3);
  expect(JSON.stringify(rows)).not.toMatch(/198\.51|sara/);
  await fail(OFFICE, "omar@example.com", now + 2 * 60 * 60_000);
  expect(await db.selectFrom("auth_attempts").selectAll().execute()).toHaveLength(2);
});

it("admits no more than the limit when attempts arrive together", async () => {
  const now = Date.UTC(2026, 2, 1);
  const results = await Promise.all(Array.from({ length: 40 }, () => fail(OFFICE, "sara@example.com", now)));
  expect(results.filter(Boolean)).toHaveLength(SIGN_IN_ACCOUNT_RULE.max);
});

it("limits 'forgot password' per email, from any address, until its window has passed", async () => {
  const now = Date.UTC(2026, 2, 1);
  const minute = 60_000;
  for (let i = 0; i < RESET_EMAIL_RULE.max; i++)
    expect(await admitted(admitResetRequest(db, SECRET, `203.0.113.${i}`, "sara@example.com", now + i * minute))).toBe(
      true,
    );
  const refused = await refusalOf(
    admitResetRequest(db, SECRET, "203.0.113.99", " Sara@Example.com", now + 10 * minute),
  );
  expect(refused).toMatchObject({
    code: "rate-limited",
    message: accountMessages.resetTooMany,
    retryAfterSeconds: (RESET_EMAIL_RULE.window - 10 * minute) / 1000,
  });
  expect(await admitted(admitResetRequest(db, SECRET, "203.0.113.99", "omar@example.com", now + 10 * minute))).toBe(
    true,
  );
  expect(
    await admitted(
      admitResetRequest(db, SECRET, "203.0.113.99", "sara@example.com", now + RESET_EMAIL_RULE.window - 1),
    ),
  ).toBe(false);
  expect(
    await admitted(admitResetRequest(db, SECRET, "203.0.113.99", "sara@example.com", now + RESET_EMAIL_RULE.window)),
  ).toBe(true);
});

it("limits 'forgot password' per address over every email, registered or not", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < RESET_ADDRESS_RULE.max; i++)
    expect(await admitted(admitResetRequest(db, SECRET, OFFICE, `staff${i}@example.com`, now + i))).toBe(true);
  expect(await admitted(admitResetRequest(db, SECRET, OFFICE, "one-more@example.com", now + 1000))).toBe(false);
  expect(await admitted(admitResetRequest(db, SECRET, "203.0.113.9", "one-more@example.com", now + 1000))).toBe(true);
  expect(
    await admitted(admitResetRequest(db, SECRET, OFFICE, "one-more@example.com", now + RESET_ADDRESS_RULE.window)),
  ).toBe(true);
});
