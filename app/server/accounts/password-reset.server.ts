import { randomBytes } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { accountMessages, authErrors } from "~/lib/messages";
import type { Role } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import { invitationMail, resetPageLink, type Mailer } from "~/server/mail/mail.server";
import { AppError } from "~/server/platform/app-error.server";
import { appErrorOfAuthApi } from "./auth-errors.server";
import type { Auth } from "./auth-instance.server";
import { createAccount, generatePassword } from "./users.server";

/** How long an invitation's link stays valid: longer than a reset link, since nobody asked for it. */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;

const mailOff = () => new AppError("bad-request", { message: accountMessages.mailOff });

/**
 * "Forgot password": better-auth makes a single-use token (RESET_LINK_SECONDS) and hands it to the
 * mailer (auth-instance.server.ts). Whether the email is registered is never told.
 */
export async function requestResetLink(auth: Auth, mailer: Mailer | null, email: string): Promise<void> {
  if (!mailer) throw mailOff();
  try {
    await auth.api.requestPasswordReset({ body: { email } });
  } catch (error) {
    throw new AppError("unavailable", { message: accountMessages.mailFailed, cause: error });
  }
}

/** The users page's "send reset link" for one account. */
export async function sendResetLinkTo(auth: Auth, db: DB, mailer: Mailer | null, userId: string): Promise<void> {
  const user = await db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst();
  if (!user) throw new AppError("not-found", { message: accountMessages.accountNotFound });
  await requestResetLink(auth, mailer, user.email);
}

/**
 * Sets a new password from a reset or invitation link. better-auth consumes the token with the change
 * (single use) and ends the account's sessions.
 */
export async function resetWithToken(auth: Auth, token: string, newPassword: string): Promise<void> {
  try {
    await auth.api.resetPassword({ body: { token, newPassword } });
  } catch (error) {
    if (isAPIError(error) && (error.body?.code === "INVALID_TOKEN" || error.body?.code === "USER_NOT_FOUND")) {
      throw new AppError("bad-request", { message: accountMessages.resetInvalid });
    }
    throw appErrorOfAuthApi(error);
  }
}

export type Invitation = { name: string; email: string; role: Role };

/**
 * A new newsroom account with a random password nobody sees, and a mail with a link to choose one:
 * the same token better-auth's reset uses, valid INVITATION_SECONDS.
 */
export async function inviteMember(auth: Auth, db: DB, mailer: Mailer | null, baseUrl: string, inviterName: string, invitation: Invitation): Promise<void> {
  if (!mailer) throw mailOff();
  const existing = await db.selectFrom("user").select("id").where("email", "=", invitation.email).executeTakeFirst();
  if (existing) throw new AppError("conflict", { message: authErrors["email-already-in-use"].arabic });
  const userId = await createAccount(auth, db, { email: invitation.email, username: invitation.name, password: generatePassword(), role: invitation.role });
  const token = randomBytes(24).toString("base64url");
  const context = await auth.$context;
  await context.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt: new Date(Date.now() + INVITATION_SECONDS * 1000),
  });
  try {
    await mailer.send(invitationMail(invitation, inviterName, resetPageLink(baseUrl, token)));
  } catch (error) {
    throw new AppError("unavailable", { message: accountMessages.mailFailed, cause: error });
  }
}
