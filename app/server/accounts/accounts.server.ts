import { z } from "zod";
import type { SignInInput, SignUpInput } from "~/lib/auth-schemas";
import { authErrorCode, authFailure } from "./auth-errors.server";
import { forgetAttempt } from "~/server/limits/attempt-limits.server";
import { admitSignIn, admitSignUp } from "./auth-limits.server";
import { CLIENT_IP_HEADER, type Auth } from "./auth-instance.server";
import type { DB } from "~/server/db/db.server";

/** What signing in, up and out need: better-auth, its database, the public address and the secret that keys the limits. */
export type AccountsContext = { auth: Auth; db: DB; baseUrl: string; authSecret: string };

/**
 * Sends a request through better-auth's own router, so its checks apply exactly as they would to its
 * HTTP API. Sign-in and sign-up limits are ours (auth-limits.server.ts), checked before.
 */
async function callAuth(
  accounts: AccountsContext,
  path: string,
  request: Request,
  clientIp: string,
  body?: unknown,
): Promise<Response> {
  const headers = new Headers({ origin: accounts.baseUrl, [CLIENT_IP_HEADER]: clientIp });
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  const userAgent = request.headers.get("user-agent");
  if (userAgent) headers.set("user-agent", userAgent);
  if (body !== undefined) headers.set("content-type", "application/json");
  return accounts.auth.handler(
    new Request(`${accounts.baseUrl}/api/auth${path}`, {
      method: "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function errorOf(response: Response): Promise<string | undefined> {
  try {
    const payload = (await response.json()) as { code?: unknown };
    return typeof payload.code === "string" ? payload.code : undefined;
  } catch {
    return undefined;
  }
}

async function isRegistered(db: DB, email: string): Promise<boolean> {
  const row = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
  return row !== undefined;
}

const emailFormat = z.email();

/**
 * Signs in; returns the session's cookies. A refusal is thrown as authFailure (its catalogue entry as
 * `reason`). Only failures count: a locked-out account waits even with the right password, which is never checked.
 */
export async function signIn(
  accounts: AccountsContext,
  request: Request,
  clientIp: string,
  input: SignInInput,
): Promise<string[]> {
  if (!emailFormat.safeParse(input.email).success) throw authFailure("invalid-email");
  const attemptIds = await admitSignIn(accounts.db, accounts.authSecret, clientIp, input.email);
  const response = await callAuth(accounts, "/sign-in/email", request, clientIp, {
    email: input.email,
    password: input.password,
  });
  if (response.ok) {
    await forgetAttempt(accounts.db, attemptIds);
    return response.headers.getSetCookie();
  }
  const code = await errorOf(response);
  const registered = code === "INVALID_EMAIL_OR_PASSWORD" ? await isRegistered(accounts.db, input.email) : undefined;
  throw authFailure(authErrorCode(response.status, code, registered));
}

/** Registration; returns the new session's cookies. The role is never part of the request: the database default makes every new account a user. */
export async function signUp(
  accounts: AccountsContext,
  request: Request,
  clientIp: string,
  input: SignUpInput,
): Promise<string[]> {
  if (!emailFormat.safeParse(input.email).success) throw authFailure("invalid-email");
  await admitSignUp(accounts.db, accounts.authSecret, clientIp);
  const response = await callAuth(accounts, "/sign-up/email", request, clientIp, {
    name: input.username,
    email: input.email,
    password: input.password,
  });
  if (response.ok) return response.headers.getSetCookie();
  throw authFailure(authErrorCode(response.status, await errorOf(response)));
}

/** Returns the cookies that end the session. A failed sign-out is told through the catalogue, never in better-auth's own words. */
export async function signOut(accounts: AccountsContext, request: Request, clientIp: string): Promise<string[]> {
  const response = await callAuth(accounts, "/sign-out", request, clientIp);
  if (response.ok) return response.headers.getSetCookie();
  throw authFailure(authErrorCode(response.status, await errorOf(response)));
}
