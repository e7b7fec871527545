import type { Category } from "~/lib/categories";
import { articleIdPath, type NewsStatus } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { recordArticleEvent } from "~/server/outbox/outbox.server";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { articleState } from "./articles-write.server";
import { keepRevision, UNNAMED_SAVE } from "./revisions.server";
import { ensureShortLink } from "./short-links.server";

/** An article brought over from another site with its own id, dates, visits and short links. */
export type ImportedArticle = {
  id: string;
  title: string;
  content: string;
  category: Category;
  images: string[];
  imageUrl: string | null;
  video: string | null;
  isVideo: boolean;
  visits: number;
  status: Extract<NewsStatus, "published" | "draft">;
  createdAt: string;
  updatedAt: string | null;
  shortLinks: { shortId: string; createdAt: string }[];
};

/**
 * Writes an imported article under its own id, inside the caller's transaction: created, or updated
 * over what an earlier import wrote (the version it replaces kept as a revision; a trashed article stays
 * in the trash; visits never go down). Its short ids are kept when free; a published article without
 * one gets one. Indexed for search and recorded in the outbox like any write.
 * Returns what it did and the short ids it could not keep (taken by another article, or a second one).
 */
export async function importArticle(
  trx: DB,
  article: ImportedArticle,
): Promise<{ outcome: "created" | "updated"; refusedShortIds: string[] }> {
  const current = await trx
    .selectFrom("news")
    .select(["title", "category", "status", "created_at", "published_at", "slug", "visits"])
    .where("id", "=", article.id)
    .executeTakeFirst();
  const status: NewsStatus = current?.status === "trashed" ? "trashed" : article.status;
  const publishedAt =
    article.status === "published" ? (current?.published_at ?? article.createdAt) : (current?.published_at ?? null);
  const fields = {
    title: article.title,
    content: article.content,
    category: article.category,
    images: JSON.stringify(article.images),
    image_url: article.imageUrl,
    video: article.video,
    is_video: article.isVideo ? 1 : 0,
    status,
    visits: Math.max(article.visits, current?.visits ?? 0),
    created_at: article.createdAt,
    updated_at: article.updatedAt,
    published_at: publishedAt,
  };
  if (current) {
    await keepRevision(trx, article.id, UNNAMED_SAVE, new Date().toISOString());
    await trx
      .updateTable("news")
      .set((eb) => ({ ...fields, version: eb("version", "+", 1) }))
      .where("id", "=", article.id)
      .execute();
  } else {
    await trx
      .insertInto("news")
      .values({ id: article.id, ...fields, author_id: null, byline: null, publish_at: null, submission_id: null })
      .execute();
  }
  const refusedShortIds: string[] = [];
  for (const link of article.shortLinks) {
    await trx
      .insertInto("short_links")
      .values({
        short_id: link.shortId,
        long_url: articleIdPath(article.id),
        news_id: article.id,
        created_at: link.createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const holder = await trx
      .selectFrom("short_links")
      .select("news_id")
      .where("short_id", "=", link.shortId)
      .executeTakeFirst();
    if (holder?.news_id !== article.id) refusedShortIds.push(link.shortId);
  }
  if (status === "published") await ensureShortLink(trx, article.id);
  await syncSearchIndex(trx, article.id);
  const after = articleState(article.id, { ...fields, status, slug: current?.slug ?? null });
  await recordArticleEvent(trx, current ? articleState(article.id, current) : null, after);
  return { outcome: current ? "updated" : "created", refusedShortIds };
}
