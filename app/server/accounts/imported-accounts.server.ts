import { randomBytes } from "node:crypto";
import type { Role } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import { isFirebaseHash } from "./firebase-scrypt.server";

/** An account brought over from Firebase Auth with its own id. */
export type ImportedAccount = {
  id: string;
  email: string;
  username: string;
  role: Role;
  emailVerified: boolean;
  createdAt: string;
  /** An encoded Firebase hash (firebase-scrypt.server.ts), or null for an account without a password. */
  legacyPassword: string | null;
};

/**
 * Writes an imported account inside the caller's transaction: the user row under its Firebase uid and,
 * when it has a password, a credential account holding the Firebase hash. A password already replaced
 * by our own hash (the reader signed in since) is never put back. "email-taken" when another account
 * here already has its email: nothing is written.
 */
export async function importAccount(trx: DB, account: ImportedAccount): Promise<"created" | "updated" | "email-taken"> {
  const owner = await trx.selectFrom("user").select("id").where("email", "=", account.email).executeTakeFirst();
  if (owner && owner.id !== account.id) return "email-taken";
  const now = new Date().toISOString();
  const existing = await trx.selectFrom("user").select("id").where("id", "=", account.id).executeTakeFirst();
  const fields = {
    name: account.username,
    email: account.email,
    role: account.role,
    emailVerified: account.emailVerified ? 1 : 0,
    updatedAt: now,
  };
  if (existing) await trx.updateTable("user").set(fields).where("id", "=", account.id).execute();
  else
    await trx
      .insertInto("user")
      .values({ id: account.id, ...fields, image: null, createdAt: account.createdAt })
      .execute();
  if (account.legacyPassword) await keepLegacyPassword(trx, account.id, account.legacyPassword, now);
  return existing ? "updated" : "created";
}

async function keepLegacyPassword(trx: DB, userId: string, legacyPassword: string, now: string): Promise<void> {
  const credential = await trx
    .selectFrom("account")
    .select(["id", "password"])
    .where("userId", "=", userId)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  if (!credential) {
    await trx
      .insertInto("account")
      .values({
        id: randomBytes(16).toString("hex"),
        accountId: userId,
        providerId: "credential",
        userId,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        password: legacyPassword,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  } else if (credential.password === null || isFirebaseHash(credential.password)) {
    await trx
      .updateTable("account")
      .set({ password: legacyPassword, updatedAt: now })
      .where("id", "=", credential.id)
      .execute();
  }
}
