import { z } from "./zod";
import { newsroomMessages } from "./newsroom-messages";

export const USERNAME_MAX = 50;
export const EMAIL_MAX = 254;
export const PASSWORD_MAX = 128;

/** NFKC, without control, zero-width or bidi-override characters, spaces collapsed. */
function cleanUsername(raw: string): string {
  return raw
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

const required = (max: number, tooLong: string) =>
  z.string({ error: newsroomMessages.fieldRequired }).trim().min(1, newsroomMessages.fieldRequired).max(max, tooLong);

export const emailField = required(EMAIL_MAX, newsroomMessages.emailTooLong).transform((value) => value.toLowerCase());
// Length rules below 6 and e-mail format come from better-auth, so its catalogue message is shown.
const password = z
  .string({ error: newsroomMessages.fieldRequired })
  .min(1, newsroomMessages.fieldRequired)
  .max(PASSWORD_MAX, newsroomMessages.passwordTooLong);

export const signInSchema = z.object({ email: emailField, password });

/** A display name (user.name), cleaned: sign-up, the account page and invitations share it. */
export const usernameField = required(USERNAME_MAX * 4, newsroomMessages.usernameTooLong)
  .transform(cleanUsername)
  .pipe(z.string().min(1, newsroomMessages.usernameInvalid).max(USERNAME_MAX, newsroomMessages.usernameTooLong));

export const signUpSchema = z.object({
  username: usernameField,
  email: emailField,
  password,
});

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
