import type { DB } from "~/server/db/db.server";
import { appErrorOfAuthApi } from "./auth-errors.server";
import type { Auth } from "./auth-instance.server";
import { endResetLinks } from "./reset-links.server";

/** What a signed-in person changes on their own account, through better-auth with their session's cookie. */

export async function renameSelf(auth: Auth, request: Request, name: string): Promise<void> {
  try {
    await auth.api.updateUser({ body: { name }, headers: request.headers });
  } catch (error) {
    throw appErrorOfAuthApi(error);
  }
}

/**
 * The current password is checked by better-auth; every other session of the account ends and this
 * one is replaced (the returned cookies carry the new session), and so do its reset links.
 */
export async function changeOwnPassword(
  auth: Auth,
  db: DB,
  request: Request,
  input: { currentPassword: string; newPassword: string },
): Promise<string[]> {
  let changed;
  try {
    changed = await auth.api.changePassword({
      body: { ...input, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    });
  } catch (error) {
    throw appErrorOfAuthApi(error);
  }
  await endResetLinks(db, changed.response.user.id);
  return changed.headers.getSetCookie();
}

/** Ends every session of the account but this request's. */
export async function signOutOtherSessions(auth: Auth, request: Request): Promise<void> {
  try {
    await auth.api.revokeOtherSessions({ headers: request.headers });
  } catch (error) {
    throw appErrorOfAuthApi(error);
  }
}

/** Sessions of the account still valid, this one included. */
export async function openSessionCount(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("session")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("userId", "=", userId)
    .where("expiresAt", ">", new Date().toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
