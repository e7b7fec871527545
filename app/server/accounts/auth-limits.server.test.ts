import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import {
  admitResetRequest,
  admitSignIn,
  admitSignUp,
  forgetAttempt,
  RESET_ADDRESS_RULE,
  RESET_EMAIL_RULE,
  SIGN_IN_ACCOUNT_RULE,
  SIGN_IN_ADDRESS_RULE,
  SIGN_UP_ADDRESS_RULE,
} from "./auth-limits.server";
import type { DB } from "~/server/db/db.server";

const SECRET = "limits-secret-limits-secret-limits-secret";
const OFFICE = "198.51.100.20";
let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

async function fail(address: string, email: string, now: number) {
  const admission = await admitSignIn(db, SECRET, address, email, now);
  return admission.ok;
}

it("locks one account on one address after its failures, and lets it in again when the window has passed", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ACCOUNT_RULE.max; i++) expect(await fail(OFFICE, "sara@example.com", now + i)).toBe(true);
  const locked = await admitSignIn(db, SECRET, OFFICE, "Sara@Example.com ", now + 100);
  expect(locked).toMatchObject({ ok: false, error: { code: "rate-limited", retryAfterSeconds: SIGN_IN_ACCOUNT_RULE.window / 1000 } });
  expect((await admitSignIn(db, SECRET, OFFICE, "omar@example.com", now + 100)).ok).toBe(true);
  expect((await admitSignIn(db, SECRET, "203.0.113.9", "sara@example.com", now + 100)).ok).toBe(true);
  expect((await admitSignIn(db, SECRET, OFFICE, "sara@example.com", now + SIGN_IN_ACCOUNT_RULE.window)).ok).toBe(true);
});

it("does not count sign-ins that succeeded", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ACCOUNT_RULE.max * 3; i++) {
    const admission = await admitSignIn(db, SECRET, OFFICE, "sara@example.com", now + i);
    expect(admission.ok).toBe(true);
    if (admission.ok) await forgetAttempt(db, admission.attemptIds);
  }
});

it("caps failures from one address over many accounts, well above one person's", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_IN_ADDRESS_RULE.max; i++) expect(await fail(OFFICE, `staff${i}@example.com`, now)).toBe(true);
  expect(await fail(OFFICE, "one-more@example.com", now)).toBe(false);
});

it("lets a school register its class from one address, then says to wait", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < SIGN_UP_ADDRESS_RULE.max; i++) expect((await admitSignUp(db, SECRET, OFFICE, now + i * 1000)).ok).toBe(true);
  const refused = await admitSignUp(db, SECRET, OFFICE, now + 60_000);
  expect(refused.ok).toBe(false);
  expect((await admitSignUp(db, SECRET, OFFICE, now + SIGN_UP_ADDRESS_RULE.window)).ok).toBe(true);
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
  for (let i = 0; i < RESET_EMAIL_RULE.max; i++) expect((await admitResetRequest(db, SECRET, `203.0.113.${i}`, "sara@example.com", now + i * minute)).ok).toBe(true);
  const refused = await admitResetRequest(db, SECRET, "203.0.113.99", " Sara@Example.com", now + 10 * minute);
  expect(refused).toMatchObject({ ok: false, error: { code: "rate-limited", retryAfterSeconds: (RESET_EMAIL_RULE.window - 10 * minute) / 1000 } });
  expect((await admitResetRequest(db, SECRET, "203.0.113.99", "omar@example.com", now + 10 * minute)).ok).toBe(true);
  expect((await admitResetRequest(db, SECRET, "203.0.113.99", "sara@example.com", now + RESET_EMAIL_RULE.window - 1)).ok).toBe(false);
  expect((await admitResetRequest(db, SECRET, "203.0.113.99", "sara@example.com", now + RESET_EMAIL_RULE.window)).ok).toBe(true);
});

it("limits 'forgot password' per address over every email, registered or not", async () => {
  const now = Date.UTC(2026, 2, 1);
  for (let i = 0; i < RESET_ADDRESS_RULE.max; i++) expect((await admitResetRequest(db, SECRET, OFFICE, `staff${i}@example.com`, now + i)).ok).toBe(true);
  expect((await admitResetRequest(db, SECRET, OFFICE, "one-more@example.com", now + 1000)).ok).toBe(false);
  expect((await admitResetRequest(db, SECRET, "203.0.113.9", "one-more@example.com", now + 1000)).ok).toBe(true);
  expect((await admitResetRequest(db, SECRET, OFFICE, "one-more@example.com", now + RESET_ADDRESS_RULE.window)).ok).toBe(true);
});
