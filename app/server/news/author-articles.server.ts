import type { NewsSummary } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { PUBLIC } from "~/lib/audience";
import { summaries, toSummary } from "./articles-read.server";

/**
 * One page of the published articles credited to `username` (a user's name): those with a byline text
 * are credited to it instead and are not listed. Null when no account has that name.
 */
export async function listAuthorArticles(
  db: DB,
  username: string,
  page: number,
  pageSize: number,
): Promise<{ items: NewsSummary[]; hasMore: boolean } | null> {
  // The accounts' ids as values: one account's stories are then read in the order of its index, only as many as the page shows.
  const authors = (await db.selectFrom("user").select("user.id").where("user.name", "=", username).execute()).map(
    (row) => row.id,
  );
  if (authors.length === 0) return null;
  const rows = await summaries(db, PUBLIC)
    .where("news.author_id", "in", authors)
    .where("news.byline", "is", null)
    .orderBy("news.created_at", "desc")
    .orderBy("news.id", "desc")
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return { items: rows.slice(0, pageSize).map(toSummary), hasMore: rows.length > pageSize };
}
