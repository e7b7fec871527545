import type { AuthErrorCode } from "~/lib/messages";

/**
 * The one place better-auth's answers become SPEC.md §8 catalogue entries. better-auth gives one code
 * for an unknown email and a wrong password; `emailRegistered` tells them apart.
 */
export function authErrorCode(status: number, code: string | undefined, emailRegistered?: boolean): AuthErrorCode {
  if (status === 429) return "too-many-requests";
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_PASSWORD":
    case "USER_NOT_FOUND":
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      if (code === "USER_NOT_FOUND" || emailRegistered === false) return "user-not-found";
      return "wrong-password";
    case "PASSWORD_TOO_SHORT":
      return "weak-password-short";
    case "PASSWORD_TOO_LONG":
      return "weak-password";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "email-already-in-use";
    case "INVALID_EMAIL":
      return "invalid-email";
    case "EMAIL_PASSWORD_DISABLED":
    case "EMAIL_PASSWORD_SIGN_UP_DISABLED":
    case "FIELD_NOT_ALLOWED":
      return "operation-not-allowed";
    default:
      return "unknown";
  }
}
