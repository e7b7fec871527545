import { isCategory } from "~/lib/categories";
import type { DB } from "~/server/db/db.server";
import { getArticle, updateArticle } from "./news.server";
import { EDITORS } from "~/lib/audience";
import { getRevision } from "./revisions.server";

/**
 * Puts a revision's title, text, category, byline and media (with each image's details) back into its article, as a save by `actorId`:
 * the version it replaces is kept as a new revision, and the outbox hears of it. The status stays.
 * at `now`. False when the article (outside the trash) or the revision is not there.
 */
export async function restoreRevision(db: DB, newsId: string, revisionId: number, actorId: string, now = new Date()): Promise<boolean> {
  const [article, revision] = await Promise.all([getArticle(db, newsId, EDITORS), getRevision(db, newsId, revisionId)]);
  if (!article || !revision) return false;
  const restored = await updateArticle(
    db,
    newsId,
    {
      title: revision.title,
      content: revision.content,
      body: revision.body,
      category: isCategory(revision.category) ? revision.category : "miscellaneous",
      status: article.status,
      publishAt: article.publishAt,
      byline: revision.byline,
      imageUrl: revision.imageUrl,
      images: revision.images,
      imageDetails: revision.imageDetails,
      video: revision.video,
    },
    { by: actorId, kind: "save", at: now },
  );
  return restored !== null;
}
