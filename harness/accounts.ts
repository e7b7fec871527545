import type { Role } from "~/lib/constants";
import { createAuth } from "~/server/accounts/auth-instance.server";
import { createAccount } from "~/server/accounts/users.server";
import type { DB } from "~/server/db/db.server";

export const TEST_PASSWORD = "secret123";

/** What better-auth needs to act as the server would: its address and its secret. */
export type AuthServer = { baseUrl: string; authSecret: string };
export type TestAccount = { email: string; username: string; role: Role; password?: string };

/** Creates an account the way the site does (better-auth's sign-up, then the role); returns its id. */
export async function createTestAccount(db: DB, server: AuthServer, account: TestAccount): Promise<string> {
  return createAccount(createAuth(db, server), db, { ...account, password: account.password ?? TEST_PASSWORD });
}

/**
 * Signs an existing account in through better-auth's own API (same database and secret as the
 * server) and returns the Cookie header to send. No HTTP sign-in, so the sign-in rate limit stays untouched.
 */
export async function sessionCookie(
  db: DB,
  server: AuthServer,
  email: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const response = await createAuth(db, server).api.signInEmail({ body: { email, password }, asResponse: true });
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Creates an account and signs it in: the Cookie header of its session. */
export async function signedInAs(db: DB, server: AuthServer, account: TestAccount): Promise<string> {
  await createTestAccount(db, server, account);
  return sessionCookie(db, server, account.email, account.password);
}
