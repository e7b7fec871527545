import { isAPIError } from "better-auth/api";
import { accountMessages, authErrors } from "~/lib/newsroom-messages";
import type { Role } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import { invitationMail, resetMail, resetPageLink, type MailMessage, type Mailer } from "~/server/mail/mail.server";
import { AppError } from "~/server/platform/app-error.server";
import { appErrorOfAuthApi } from "./auth-errors.server";
import type { Auth } from "./auth-instance.server";
import { admitResetRequest } from "./auth-limits.server";
import { INVITATION_SECONDS, issueResetLink, RESET_LINK_SECONDS } from "./reset-links.server";
import { createAccount, generatePassword } from "./users.server";

/** What sending reset links needs: the database, the mailer (null without SMTP_URL), the site's address for the link, the secret that keys the limits. */
export type ResetMailing = { db: DB; mailer: Mailer | null; baseUrl: string; authSecret: string };

const mailOff = () => new AppError("bad-request", { message: accountMessages.mailOff });

/** Work to run once the answer has gone out (the load context's `afterResponse`). */
export type AfterResponse = (work: () => Promise<void>) => void;

/**
 * "Forgot password": counted per email and per client address whether or not the email is registered,
 * then answered at once. Looking the account up, making its link and mailing it are left to
 * `afterResponse`, so the answer takes the same time either way and tells nothing.
 */
export async function requestResetLink(
  mailing: ResetMailing,
  clientIp: string,
  email: string,
  afterResponse: AfterResponse,
): Promise<void> {
  const { mailer } = mailing;
  if (!mailer) throw mailOff();
  await admitResetRequest(mailing.db, mailing.authSecret, clientIp, email);
  afterResponse(async () => {
    const user = await mailing.db
      .selectFrom("user")
      .select(["id", "name", "email"])
      .where("email", "=", email)
      .executeTakeFirst();
    if (user) await mailer.send(await newResetMail(mailing, user));
  });
}

async function newResetMail(
  mailing: ResetMailing,
  user: { id: string; name: string; email: string },
): Promise<MailMessage> {
  const token = await issueResetLink(mailing.db, user.id, RESET_LINK_SECONDS);
  return resetMail(user, resetPageLink(mailing.baseUrl, token));
}

async function sendOrFail(mailer: Mailer, message: MailMessage): Promise<void> {
  try {
    await mailer.send(message);
  } catch (error) {
    throw new AppError("unavailable", { message: accountMessages.mailFailed, cause: error });
  }
}

/** The users page's "send reset link" for one account: sent in the request, so the admin hears of a failure. */
export async function sendResetLinkTo(mailing: ResetMailing, userId: string): Promise<void> {
  if (!mailing.mailer) throw mailOff();
  const user = await mailing.db
    .selectFrom("user")
    .select(["id", "name", "email"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) throw new AppError("not-found", { message: accountMessages.accountNotFound });
  await sendOrFail(mailing.mailer, await newResetMail(mailing, user));
}

/**
 * Sets a new password from a reset or invitation link. better-auth consumes the token with the change
 * (single use) and ends the account's sessions; its onPasswordReset ends the account's other links.
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
 * the same kind of link a reset sends, valid INVITATION_SECONDS.
 */
export async function inviteMember(
  auth: Auth,
  mailing: ResetMailing,
  inviterName: string,
  invitation: Invitation,
): Promise<void> {
  const { db, mailer } = mailing;
  if (!mailer) throw mailOff();
  const existing = await db.selectFrom("user").select("id").where("email", "=", invitation.email).executeTakeFirst();
  if (existing) throw new AppError("conflict", { message: authErrors["email-already-in-use"].arabic });
  const userId = await createAccount(auth, db, {
    email: invitation.email,
    username: invitation.name,
    password: generatePassword(),
    role: invitation.role,
  });
  const token = await issueResetLink(db, userId, INVITATION_SECONDS);
  await sendOrFail(mailer, invitationMail(invitation, inviterName, resetPageLink(mailing.baseUrl, token)));
}
