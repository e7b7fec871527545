import { randomBytes, randomUUID } from "node:crypto";
import type { DB } from "~/server/db/db.server";
import { lockKeys } from "~/server/db/key-locks.server";

/**
 * A reset or invitation link's token is a `verification` row `reset-password:<token>` whose value is the
 * account's id: better-auth's resetPassword reads it and consumes it with the change.
 */
const IDENTIFIER_PREFIX = "reset-password:";

/** How long a link sent by "forgot password" or from the users page stays valid. */
export const RESET_LINK_SECONDS = 60 * 60;
/** How long an invitation's link stays valid: longer than a reset link, since nobody asked for it. */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;

/** A new link for the account, ending every older one in the same transaction: only the newest works. */
export async function issueResetLink(db: DB, userId: string, validSeconds: number, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  const stamp = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await lockKeys(trx, [IDENTIFIER_PREFIX + userId]);
    await endResetLinks(trx, userId);
    await trx
      .insertInto("verification")
      .values({
        id: randomUUID(),
        identifier: IDENTIFIER_PREFIX + token,
        value: userId,
        expiresAt: new Date(now.getTime() + validSeconds * 1000).toISOString(),
        createdAt: stamp,
        updatedAt: stamp,
      })
      .execute();
  });
  return token;
}

/** Ends every reset and invitation link of the account: one was used, or its password changed another way. */
export async function endResetLinks(db: DB, userId: string): Promise<void> {
  await db
    .deleteFrom("verification")
    .where("value", "=", userId)
    .where("identifier", "like", `${IDENTIFIER_PREFIX}%`)
    .execute();
}
