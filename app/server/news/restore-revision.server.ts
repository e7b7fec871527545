import { isCategory } from "~/lib/categories";
import type { DB } from "~/server/db/db.server";
import { getArticle } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { EDITORS } from "~/lib/audience";
import { getRevision } from "./revisions.server";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";

export const revisionNotFound = () => new AppError("not-found", { message: messages.revisionNotFound });

/**
 * Puts a revision's title, text, category, byline, topics, story fields and media (with each image's details) back into its article, as a save by `actorId`:
 * the version it replaces is kept as a new revision, and the outbox hears of it. The status stays.
 * at `now`. Not-found when the article (outside the trash) or the revision is not there.
 */
export async function restoreRevision(db: DB, newsId: string, revisionId: number, actorId: string, now = new Date()): Promise<void> {
  const [article, revision] = await Promise.all([getArticle(db, newsId, EDITORS), getRevision(db, newsId, revisionId)]);
  if (!article || !revision) throw revisionNotFound();
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
      // Names, not ids: a topic renamed or merged since is found by the slug its old name left.
      topics: revision.topics ? { names: revision.topics, mayCreate: true } : undefined,
      story: revision.story,
    },
    { by: actorId, kind: "save", at: now },
  );
  if (restored === null) throw revisionNotFound();
}
