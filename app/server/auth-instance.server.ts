import { betterAuth } from "better-auth";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import type { Config } from "./config.server";
import type { DB } from "./db/db.server";

export const MAX_PASSWORD_LENGTH = 128;
export const SIGN_IN_WINDOW_SECONDS = 300;
export const SIGN_IN_MAX = 10;
export const SIGN_UP_WINDOW_SECONDS = 3600;
export const SIGN_UP_MAX = 5;
/** Set by our own server from the socket address, never taken from the client. */
export const CLIENT_IP_HEADER = "x-akhbar-client-ip";

export function createAuth(db: DB, cfg: Pick<Config, "baseUrl" | "authSecret">) {
  return betterAuth({
    baseURL: cfg.baseUrl,
    basePath: "/api/auth",
    secret: cfg.authSecret,
    database: { db, type: "sqlite" },
    trustedOrigins: [cfg.baseUrl],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
    },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: SIGN_IN_WINDOW_SECONDS, max: SIGN_IN_MAX },
        "/sign-up/email": { window: SIGN_UP_WINDOW_SECONDS, max: SIGN_UP_MAX },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: cfg.baseUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
    // Errors that are not better-auth's own answers (a busy database's 503) reach our routes instead of becoming a bare 500.
    onAPIError: { throw: true },
  });
}

export type Auth = ReturnType<typeof createAuth>;
