import type { Role } from "~/lib/constants";
import { createAuth } from "~/server/accounts/auth-instance.server";
import type { DB } from "~/server/db/db.server";
import { createAccount } from "~/server/accounts/users.server";

export const TEST_PASSWORD = "secret123";

/**
 * Creates an account on the server's database and signs it in through better-auth's own API (as
 * the server would, same secret), returning the Cookie header to send. No HTTP sign-in, so the
 * sign-in rate limit stays untouched.
 */
export async function signedInAs(
  db: DB,
  server: { baseUrl: string; authSecret: string },
  account: { email: string; username: string; role: Role },
): Promise<string> {
  const auth = createAuth(db, server);
  await createAccount(auth, db, { ...account, password: TEST_PASSWORD });
  const response = await auth.api.signInEmail({ body: { email: account.email, password: TEST_PASSWORD }, asResponse: true });
  return response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
