import { z } from "./zod";
import { emailField, PASSWORD_MAX, usernameField } from "./auth-schemas";
import { ROLES } from "./constants";
import { MIN_PASSWORD_LENGTH } from "./constants";
import { accountMessages, authErrors, messages } from "./messages";

/*
 * The users page, the account page and the reset pages: one schema per form, for the form's limits and
 * the server's checks. Each field's first problem is its message (fieldErrorsOf).
 */

const ID_MAX = 100;
export const SEARCH_MAX = 100;

const newPassword = z
  .string({ error: messages.fieldRequired })
  .min(1, messages.fieldRequired)
  .min(MIN_PASSWORD_LENGTH, authErrors["weak-password-short"].arabic)
  .max(PASSWORD_MAX, messages.passwordTooLong);
const currentPassword = z.string({ error: messages.fieldRequired }).min(1, messages.fieldRequired).max(PASSWORD_MAX, messages.passwordTooLong);
const userId = z.string({ error: accountMessages.accountNotFound }).min(1, accountMessages.accountNotFound).max(ID_MAX, accountMessages.accountNotFound);
const role = z.enum(ROLES, { error: accountMessages.roleInvalid });
const emailAddress = emailField.pipe(z.email(authErrors["invalid-email"].arabic));

export const userSearchSchema = z.object({ q: z.string().trim().max(SEARCH_MAX).catch("").default("") });
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
export const resetPasswordSchema = z.object({ token: z.string().min(1, accountMessages.resetInvalid).max(ID_MAX * 2, accountMessages.resetInvalid), newPassword });

/** Every field's first message, by field name. */
export function accountFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}
