import { sql, type Transaction } from "kysely";
import { accountMessages } from "~/lib/newsroom-messages";
import { isRole, type Role } from "~/lib/constants";
import type { Database } from "~/server/db/schema";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { containsPattern } from "~/server/db/like.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Auth } from "./auth-instance.server";
import { endResetLinks } from "./reset-links.server";
import { generatePassword } from "./users.server";

export type UserRow = { id: string; name: string; email: string; role: Role; disabled: boolean; createdAt: string };

/** The users page shows at most this many accounts; a search narrows them. */
export const USERS_PAGE_LIMIT = 200;

/** Accounts by name or email (case-insensitive), newest first. */
export async function listUsers(db: DB, query = ""): Promise<UserRow[]> {
  const pattern = containsPattern(query.trim().toLowerCase());
  const rows = await db
    .selectFrom("user")
    .select(["id", "name", "email", "role", "disabledAt", "createdAt"])
    .$if(query.trim() !== "", (q) =>
      q.where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref("email")}) like ${pattern} escape '\\'`,
        ]),
      ),
    )
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(USERS_PAGE_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: isRole(row.role) ? row.role : "user",
    disabled: row.disabledAt != null,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

const notFound = () => new AppError("not-found", { message: accountMessages.accountNotFound });
const lastAdmin = () => new AppError("conflict", { message: accountMessages.lastAdmin });

type Target = { role: string; disabledAt: unknown };

/**
 * Reads the account and, when the change would take an active admin away, checks inside the same
 * transaction that another active admin remains. PostgreSQL locks the admin rows first, so two admins
 * demoting each other at once cannot both pass; SQLite's write transaction (BEGIN IMMEDIATE) already
 * runs alone.
 */
async function guardLastAdmin(
  trx: Transaction<Database>,
  userId: string,
  removesAdmin: (target: Target) => boolean,
): Promise<Target> {
  if (dialectName(trx) === "postgres") {
    await trx.selectFrom("user").select("id").where("role", "=", "admin").orderBy("id").forUpdate().execute();
  }
  const target = await trx
    .selectFrom("user")
    .select(["role", "disabledAt"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!target) throw notFound();
  const isActiveAdmin = target.role === "admin" && target.disabledAt == null;
  if (isActiveAdmin && removesAdmin(target)) {
    const others = await trx
      .selectFrom("user")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("role", "=", "admin")
      .where("disabledAt", "is", null)
      .where("id", "!=", userId)
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) throw lastAdmin();
  }
  return target;
}

function refuseSelf(actorId: string, userId: string): void {
  if (actorId === userId) throw new AppError("bad-request", { message: accountMessages.notOnYourself });
}

/** Gives an account a role; the last active admin keeps theirs. */
export async function changeRole(db: DB, userId: string, role: Role): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await guardLastAdmin(trx, userId, () => role !== "admin");
    await trx.updateTable("user").set({ role, updatedAt: new Date().toISOString() }).where("id", "=", userId).execute();
  });
}

/**
 * Disables an account and deletes its sessions in the same transaction: every process reads sessions
 * from the database on every request, so its next request anywhere is signed out. Enabling clears the mark.
 */
export async function setDisabled(db: DB, actorId: string, userId: string, disabled: boolean): Promise<void> {
  refuseSelf(actorId, userId);
  await db.transaction().execute(async (trx) => {
    await guardLastAdmin(trx, userId, () => disabled);
    const now = new Date().toISOString();
    await trx
      .updateTable("user")
      .set({ disabledAt: disabled ? now : null, updatedAt: now })
      .where("id", "=", userId)
      .execute();
    if (disabled) await trx.deleteFrom("session").where("userId", "=", userId).execute();
  });
}

/**
 * Deletes an account (its sessions and password go with it, by the foreign keys). Its articles stay:
 * those without a byline take the account's name as their byline, so their credit does not change.
 */
export async function deleteAccount(db: DB, actorId: string, userId: string): Promise<void> {
  refuseSelf(actorId, userId);
  await db.transaction().execute(async (trx) => {
    await guardLastAdmin(trx, userId, () => true);
    const user = await trx.selectFrom("user").select("name").where("id", "=", userId).executeTakeFirstOrThrow();
    await trx
      .updateTable("news")
      .set((eb) => ({ byline: user.name, version: eb("version", "+", 1) }))
      .where("author_id", "=", userId)
      .where("byline", "is", null)
      .execute();
    await trx.deleteFrom("session").where("userId", "=", userId).execute();
    await trx.deleteFrom("account").where("userId", "=", userId).execute();
    await trx.deleteFrom("user").where("id", "=", userId).execute();
  });
}

/**
 * Replaces the account's password with a new random one, hashed by better-auth, ends its sessions and
 * reset links and returns it for the admin to see once: it is stored nowhere in clear.
 */
export async function setOneTimePassword(auth: Auth, db: DB, userId: string): Promise<string> {
  const exists = await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst();
  if (!exists) throw notFound();
  const password = generatePassword();
  const context = await auth.$context;
  const hash = await context.password.hash(password);
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const updated = await trx
      .updateTable("account")
      .set({ password: hash, updatedAt: now })
      .where("userId", "=", userId)
      .where("providerId", "=", "credential")
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) {
      await trx
        .insertInto("account")
        .values({
          id: crypto.randomUUID(),
          accountId: userId,
          providerId: "credential",
          userId,
          password: hash,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
    await trx.deleteFrom("session").where("userId", "=", userId).execute();
    await endResetLinks(trx, userId);
  });
  return password;
}
