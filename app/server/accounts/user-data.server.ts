import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";

export type UserData = { username: string; email: string; role: string };

/** User data by id, or 'User ID is missing' / 'User not found' (docs/product.md#messages). */
export async function getUserData(db: DB, userId: string | undefined): Promise<UserData> {
  if (!userId) throw new AppError("bad-request", { message: newsroomMessages.userIdMissing });
  const row = await db.selectFrom("user").select(["name", "email", "role"]).where("id", "=", userId).executeTakeFirst();
  if (!row) throw new AppError("not-found", { message: newsroomMessages.userNotFound });
  return { username: row.name, email: row.email, role: row.role };
}
