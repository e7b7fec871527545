import { describe, expect, it } from "vitest";
import { authErrors } from "~/lib/newsroom-messages";
import { authErrorCode } from "./auth-errors.server";

describe("authErrorCode", () => {
  it("maps better-auth's answers onto every entry of the catalogue", () => {
    expect(authErrorCode(401, "INVALID_EMAIL_OR_PASSWORD", false)).toBe("user-not-found");
    expect(authErrorCode(401, "INVALID_EMAIL_OR_PASSWORD", true)).toBe("wrong-password");
    expect(authErrorCode(400, "PASSWORD_TOO_SHORT")).toBe("weak-password-short");
    expect(authErrorCode(400, "PASSWORD_TOO_LONG")).toBe("weak-password");
    expect(authErrorCode(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")).toBe("email-already-in-use");
    expect(authErrorCode(422, "USER_ALREADY_EXISTS")).toBe("email-already-in-use");
    expect(authErrorCode(400, "INVALID_EMAIL")).toBe("invalid-email");
    expect(authErrorCode(403, "ACCOUNT_DISABLED")).toBe("account-disabled");
    expect(authErrorCode(400, "EMAIL_PASSWORD_SIGN_UP_DISABLED")).toBe("operation-not-allowed");
    expect(authErrorCode(429, undefined)).toBe("too-many-requests");
    expect(authErrorCode(500, "FAILED_TO_CREATE_USER")).toBe("unknown");
    expect(authErrorCode(400, undefined)).toBe("unknown");
  });

  it("keeps the catalogue's wording letter for letter (docs/product.md#messages)", () => {
    expect(Object.fromEntries(Object.entries(authErrors).map(([code, entry]) => [code, entry.catalogue]))).toEqual({
      "user-not-found": "This email is not registered, please make sure you enter a registered email.",
      "wrong-password": "The password entered is wrong. Please make sure you enter the correct password.",
      "weak-password-short": "The password should be at least 6 characters.",
      "weak-password": "Weak password. Please choose a stronger password.",
      "email-already-in-use": "The email address is already in use. Please use a different email.",
      "invalid-email": "Invalid email address. Please enter a valid email.",
      "operation-not-allowed": "This operation is currently not allowed. Please try again later.",
      "too-many-requests": "Too many requests, please try again in some minutes",
      "too-many-sign-ups":
        "Many accounts were created from this network address in the last hour. Please try again later.",
      "account-disabled": "This account has been disabled. Please contact the site's administrator.",
      unknown: "An error occurred. Please try again.",
    });
  });
});
