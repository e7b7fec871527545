import { randomBytes } from "node:crypto";
import type { Role } from "~/lib/constants";
import type { Auth } from "./auth-instance.server";
import type { DB } from "~/server/db/db.server";
import { endResetLinks } from "./reset-links.server";

export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * Creates an account through better-auth (so the password is hashed its way), then sets its role. The
 * session sign-up opens is nobody's (no browser holds it): it is ended, so the account page counts only real ones.
 */
export async function createAccount(
  auth: Auth,
  db: DB,
  input: { email: string; username: string; password: string; role: Role },
): Promise<string> {
  const result = await auth.api.signUpEmail({
    body: { email: input.email, password: input.password, name: input.username },
  });
  await setRole(db, input.email, input.role);
  await db.deleteFrom("session").where("userId", "=", result.user.id).execute();
  return result.user.id;
}

/** false when no account has that email. */
export async function setRole(db: DB, email: string, role: Role): Promise<boolean> {
  const result = await db.updateTable("user").set({ role }).where("email", "=", email.toLowerCase()).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Gives an account a new password, hashed better-auth's way: a credential account is made for one that
 * had none (an account imported from Google sign-in); its reset links end. false when no account has that email.
 */
export async function setPassword(auth: Auth, db: DB, email: string, password: string): Promise<boolean> {
  const context = await auth.$context;
  const found = await context.internalAdapter.findUserByEmail(email.toLowerCase(), { includeAccounts: true });
  if (!found) return false;
  const hash = await context.password.hash(password);
  if (found.accounts.some((account) => account.providerId === "credential"))
    await context.internalAdapter.updatePassword(found.user.id, hash);
  else
    await context.internalAdapter.linkAccount({
      userId: found.user.id,
      providerId: "credential",
      accountId: found.user.id,
      password: hash,
    });
  await endResetLinks(db, found.user.id);
  return true;
}
