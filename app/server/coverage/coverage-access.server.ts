import { canChangeLiveUpdate, canManageCoverage, canPostLiveUpdate, type OwnedArticle } from "~/lib/permissions";
import { liveDeskMessages } from "~/lib/newsroom-messages";
import type { CurrentUser } from "~/server/accounts/guards.server";
import type { DB } from "~/server/db/db.server";
import { articleNotFound, ownershipOf } from "~/server/news/ownership.server";
import { AppError } from "~/server/platform/app-error.server";

/** The story, if `user` may open or close its coverage. */
export async function assertMayManage(db: DB, user: CurrentUser, articleId: string): Promise<OwnedArticle> {
  const article = await ownershipOf(db, articleId);
  if (!article || article.status === "trashed") throw articleNotFound();
  if (!canManageCoverage(user)) throw new AppError("forbidden", { message: liveDeskMessages.editorsOnly });
  return article;
}

/** The story, if `user` may post into its coverage. */
export async function assertMayPost(db: DB, user: CurrentUser, articleId: string): Promise<OwnedArticle> {
  const article = await ownershipOf(db, articleId);
  if (!article || article.status === "trashed") throw articleNotFound();
  if (!canPostLiveUpdate(user, article)) throw new AppError("forbidden", { message: liveDeskMessages.notYourStory });
  return article;
}

/** The update's author, if `user` may edit or delete update `updateId` of the story. */
export async function assertMayChange(db: DB, user: CurrentUser, articleId: string, updateId: string): Promise<void> {
  const article = await assertMayPost(db, user, articleId);
  if (updateId === "") throw new AppError("not-found", { message: liveDeskMessages.updateNotFound });
  const update = await db
    .selectFrom("live_updates")
    .select("author_id")
    .where("id", "=", updateId)
    .where("news_id", "=", articleId)
    .executeTakeFirst();
  if (!update) throw new AppError("not-found", { message: liveDeskMessages.updateNotFound });
  if (!canChangeLiveUpdate(user, article, { authorId: update.author_id }))
    throw new AppError("forbidden", { message: liveDeskMessages.notYourUpdate });
}
