import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { DB } from "~/server/db/db.server";
import { isFirebaseHash, verifyFirebaseHash } from "./firebase-scrypt.server";

/**
 * better-auth's `emailAndPassword.password.verify`: our own hashes as better-auth checks them; a
 * password imported from Firebase (firebase-scrypt.server.ts) is checked its way once, and on success
 * replaced by our own hash, so every later sign-in is an ordinary one.
 */
export function verifyWithLegacyHashes(db: DB) {
  return async ({ hash, password }: { hash: string; password: string }): Promise<boolean> => {
    if (!isFirebaseHash(hash)) return verifyPassword({ hash, password });
    if (!(await verifyFirebaseHash(hash, password))) return false;
    await db
      .updateTable("account")
      .set({ password: await hashPassword(password), updatedAt: new Date().toISOString() })
      .where("providerId", "=", "credential")
      .where("password", "=", hash)
      .execute();
    return true;
  };
}
