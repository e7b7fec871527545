import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { OwnedArticle } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";

export const articleNotFound = () => new AppError("not-found", { message: messages.newsNotFound });
export const articleNotYours = () => new AppError("forbidden", { message: newsroomMessages.articleNotYours });

/** Who wrote an article and its status, for canEditArticle; null when there is no such article. */
export async function ownershipOf(db: DB, id: string): Promise<OwnedArticle | null> {
  const row = await db.selectFrom("news").select(["author_id", "status"]).where("id", "=", id).executeTakeFirst();
  return row ? { authorId: row.author_id, status: row.status } : null;
}
