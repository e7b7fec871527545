import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import type { Config } from "~/server/platform/config.server";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { hashPassword } from "better-auth/crypto";
import { verifyWithLegacyHashes } from "./legacy-passwords.server";
import { endResetLinks } from "./reset-links.server";

const MAX_PASSWORD_LENGTH = 128;
/** Set by our own server from the socket address, never taken from the client. */
export const CLIENT_IP_HEADER = "x-akhbar-client-ip";

/** better-auth's code for a sign-in refused because an admin disabled the account (auth-errors.server.ts maps it). */
export const ACCOUNT_DISABLED = "ACCOUNT_DISABLED";

async function isDisabled(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("disabledAt").where("id", "=", userId).executeTakeFirst();
  return row?.disabledAt != null;
}

export function createAuth(db: DB, cfg: Pick<Config, "baseUrl" | "authSecret">) {
  return betterAuth({
    baseURL: cfg.baseUrl,
    basePath: "/api/auth",
    secret: cfg.authSecret,
    // Without our value shapes: better-auth reads PostgreSQL's own types (Date, boolean) and converts SQLite's text itself.
    database: { db: db.withoutPlugins(), type: dialectName(db) },
    trustedOrigins: [cfg.baseUrl],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      // Passwords imported from Firebase are checked its way at first sign-in, then rehashed (decision 024).
      password: { hash: hashPassword, verify: verifyWithLegacyHashes(db) },
      revokeSessionsOnPasswordReset: true,
      // Reset links are made by reset-links.server.ts (newest only); a link used ends the account's others.
      onPasswordReset: ({ user }) => endResetLinks(db, user.id),
    },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "user", input: false },
        disabledAt: { type: "date", required: false, input: false },
      },
    },
    // Sessions are rows read on every request (no cookie cache): a disabled account gets no new one.
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            if (await isDisabled(db, session.userId))
              throw new APIError("FORBIDDEN", { code: ACCOUNT_DISABLED, message: ACCOUNT_DISABLED });
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 100,
      // Ours count failures per account and address instead (auth-limits.server.ts, before these run).
      customRules: { "/sign-in/email": false, "/sign-up/email": false },
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
