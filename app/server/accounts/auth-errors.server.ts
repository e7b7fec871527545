import { isAPIError } from "better-auth/api";
import { authErrors, type AuthErrorCode } from "~/lib/newsroom-messages";
import { AppError, appErrorWithin } from "~/server/platform/app-error.server";
import { ACCOUNT_DISABLED } from "./auth-instance.server";

/**
 * The one place better-auth's answers become catalogue entries (docs/product.md#messages). better-auth gives one code
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
    case ACCOUNT_DISABLED:
      return "account-disabled";
    case "EMAIL_PASSWORD_DISABLED":
    case "EMAIL_PASSWORD_SIGN_UP_DISABLED":
    case "FIELD_NOT_ALLOWED":
      return "operation-not-allowed";
    default:
      return "unknown";
  }
}

/** A refused sign-in, sign-up or sign-out as the AppError that carries its status, its catalogue entry (`reason`) and that entry's Arabic text. */
export function authFailure(reason: AuthErrorCode, retryAfterSeconds?: number): AppError {
  const limited = reason === "too-many-requests" || reason === "too-many-sign-ups";
  return new AppError(limited ? "rate-limited" : "bad-request", {
    message: authErrors[reason].arabic,
    reason,
    retryAfterSeconds,
  });
}

/**
 * A better-auth answer thrown by `auth.api` (an APIError) as our AppError with the catalogue's Arabic
 * text, or the AppError it wraps (a database fault); anything else is thrown on unchanged.
 */
export function appErrorOfAuthApi(error: unknown): AppError {
  const ours = appErrorWithin(error);
  if (ours) return ours;
  if (isAPIError(error)) {
    const code = typeof error.body?.code === "string" ? error.body.code : undefined;
    return authFailure(authErrorCode(error.statusCode, code));
  }
  throw error;
}
