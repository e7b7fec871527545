import { canEditArticle, type Actor } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { ownershipOf } from "./ownership.server";
import { articleNotFound } from "./ownership.server";

/** Whoever may edit the article may read and restore its revisions; throws not-found or forbidden otherwise. */
export async function assertRevisionsAccess(db: DB, actor: Actor, newsId: string): Promise<void> {
  const owned = await ownershipOf(db, newsId);
  if (!owned || owned.status === "trashed") throw articleNotFound();
  if (!canEditArticle(actor, owned)) throw new AppError("forbidden");
}
