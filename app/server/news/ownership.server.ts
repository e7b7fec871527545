import type { OwnedArticle } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";

/** Who wrote an article and its status, for canEditArticle; null when there is no such article. */
export async function ownershipOf(db: DB, id: string): Promise<OwnedArticle | null> {
  const row = await db.selectFrom("news").select(["author_id", "status"]).where("id", "=", id).executeTakeFirst();
  return row ? { authorId: row.author_id, status: row.status } : null;
}
