import { z } from "./zod";
import { emailField, PASSWORD_MAX, usernameField } from "./auth-schemas";
import { ROLES } from "./constants";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { accountMessages, authErrors, newsroomMessages } from "./newsroom-messages";

/*
 * The users page, the account page and the reset pages: one schema per form, for the form's limits and
 * the server's checks (http/read-form: each field's first problem is its message).
 */

const ID_MAX = 100;
export const SEARCH_MAX = 100;

const newPassword = z
  .string({ error: newsroomMessages.fieldRequired })
  .min(1, newsroomMessages.fieldRequired)
  .min(MIN_PASSWORD_LENGTH, authErrors["weak-password-short"].arabic)
  .max(PASSWORD_MAX, newsroomMessages.passwordTooLong);
const currentPassword = z
  .string({ error: newsroomMessages.fieldRequired })
  .min(1, newsroomMessages.fieldRequired)
  .max(PASSWORD_MAX, newsroomMessages.passwordTooLong);
/** better-auth's ids and tokens are letters, digits, `-` and `_`: anything else names no account (and a NUL would not reach PostgreSQL). */
const ID_SHAPE = /^[A-Za-z0-9_-]+$/;
const userId = z
  .string({ error: accountMessages.accountNotFound })
  .max(ID_MAX, accountMessages.accountNotFound)
  .regex(ID_SHAPE, accountMessages.accountNotFound);
const role = z.enum(ROLES, { error: accountMessages.roleInvalid });
const emailAddress = emailField.pipe(z.email(authErrors["invalid-email"].arabic));

/** A search is cut to SEARCH_MAX, without control characters. */
export const userSearchSchema = z.object({
  q: z
    .string()
    .transform((value) =>
      value
        .replace(/\p{Cc}/gu, "")
        .trim()
        .slice(0, SEARCH_MAX),
    )
    .catch(""),
});
export const roleChangeSchema = z.object({ userId, role });
export const userIdSchema = z.object({ userId });
export const invitationSchema = z.object({
  username: usernameField,
  email: emailAddress,
  role: z.enum(["author", "editor", "admin"], { error: accountMessages.roleInvalid }),
});

export const renameSchema = z.object({ username: usernameField });
export const changePasswordSchema = z.object({ currentPassword, newPassword });
export const forgotPasswordSchema = z.object({ email: emailAddress });
/** A token from a reset link's address, or null when it cannot be one. */
export function resetTokenOf(value: string | null): string | null {
  return resetPasswordSchema.shape.token.safeParse(value).success ? value : null;
}

export const resetPasswordSchema = z.object({
  token: z
    .string({ error: accountMessages.resetInvalid })
    .max(ID_MAX * 2, accountMessages.resetInvalid)
    .regex(ID_SHAPE, accountMessages.resetInvalid),
  newPassword,
});
