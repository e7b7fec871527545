import { betterAuth } from "better-auth";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import type { Config } from "./config.server";
import type { DB } from "./db/db.server";

export const MAX_PASSWORD_LENGTH = 128;

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
    advanced: {
      useSecureCookies: cfg.baseUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
