import { messages } from "~/lib/messages";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";

export type UserData = { username: string; email: string; role: string };

/** User data by id, or 'User ID is missing' / 'User not found' (docs/product.md#messages). */
export async function getUserData(db: DB, userId: string | undefined): Promise<UserData> {
  if (!userId) throw new AppError("bad-request", { message: messages.userIdMissing });
  const row = await db.selectFrom("user").select(["name", "email", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!row) throw new AppError("not-found", { message: messages.userNotFound });
  return { username: row.name, email: row.email, role: row.role };
}
