import { isCategory } from "~/lib/categories";
import { newsroomMessages, revisionMessages } from "~/lib/newsroom-messages";
import type { ImageDetailsMap } from "~/lib/image-details";
import { withoutFigures } from "~/lib/rich-text/document";
import { compareVersions, mediaRemoved, textOnly, type Comparison, type StoryVersion } from "~/lib/story-version";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { EDITORS } from "~/lib/audience";
import { getArticle } from "./articles-read.server";
import { updateArticle, type ArticleChanges } from "./articles-write.server";
import { getRevision } from "./revisions.server";
import { loadVersion } from "./story-versions.server";
import { removedImagesIn } from "./media-library.server";

export const revisionNotFound = () => new AppError("not-found", { message: newsroomMessages.revisionNotFound });

/** Text alone (title, standfirst, body, category, byline, topics, share title and description), or everything the revision held. */
export type RestoreMode = "text" | "full";

export type RestoreRequest = {
  mode: RestoreMode;
  /** The media the person restoring was shown would leave the story, and confirmed. */
  confirmedRemovals: readonly string[];
  /** The live version the preview showed: a story saved since is an edit conflict, nothing restored. */
  baseVersion: number;
};

/** What restoring in each mode would change, current → restored, and what each would take off the story; the live version compared. */
export type RestorePreview = { [mode in RestoreMode]: { comparison: Comparison; removed: string[] } } & {
  version: number;
};

/** Images deleted from the library since a revision named them do not come back with it. */
const keptDetails = (details: ImageDetailsMap, removed: ReadonlySet<string>): ImageDetailsMap =>
  Object.fromEntries(Object.entries(details).filter(([url]) => !removed.has(url)));
function withoutRemoved(version: StoryVersion, removed: ReadonlySet<string>): StoryVersion {
  const kept = (url: string) => !removed.has(url);
  return {
    ...version,
    images: version.images.filter(kept),
    imageDetails: keptDetails(version.imageDetails, removed),
    bodyImages: version.bodyImages.filter(kept),
  };
}

/** The two restores of a revision side by side; not-found when the story (outside the trash) or the revision is not there. */
export async function previewRestore(db: DB, newsId: string, revisionId: number): Promise<RestorePreview> {
  if (!Number.isSafeInteger(revisionId) || revisionId < 1) throw revisionNotFound();
  const [live, revision, article] = await Promise.all([
    loadVersion(db, newsId, "current"),
    loadVersion(db, newsId, revisionId),
    getArticle(db, newsId, EDITORS),
  ]);
  if (!live || !revision || !article) throw revisionNotFound();
  const removed = new Set(await removedImagesIn(db, revision));
  const preview = (target: typeof revision) => {
    const comparison = compareVersions(live, target);
    return { comparison, removed: mediaRemoved(comparison.media) };
  };
  const restorable = withoutRemoved(revision, removed);
  return { text: preview(textOnly(restorable, live)), full: preview(restorable), version: article.version };
}

/**
 * Puts a revision back into its article as a save by `actorId` at `now`: the version it replaces is
 * kept as a new revision, and the outbox hears of it. The status stays. A text-only restore keeps the
 * live images, video, share picture, address and indexing. A restore that would take a picture or the
 * video off the story is refused unless each was confirmed, and then nothing changes.
 */
export async function restoreRevision(
  db: DB,
  newsId: string,
  revisionId: number,
  actorId: string,
  request: RestoreRequest,
  now = new Date(),
): Promise<void> {
  const preview = await previewRestore(db, newsId, revisionId);
  const [article, revision] = await Promise.all([getArticle(db, newsId, EDITORS), getRevision(db, newsId, revisionId)]);
  if (!article || !revision) throw revisionNotFound();
  const confirmed = new Set(request.confirmedRemovals);
  const removed = new Set(await removedImagesIn(db, revision));
  if (!preview[request.mode].removed.every((url) => confirmed.has(url))) {
    throw new AppError("validation", { message: revisionMessages.restoreRemovalNotConfirmed });
  }
  const text = {
    title: revision.title,
    content: revision.content,
    body: withoutFigures(revision.body, removed),
    category: isCategory(revision.category) ? revision.category : "miscellaneous",
    status: article.status,
    publishAt: article.publishAt,
    byline: revision.byline,
    // Names, not ids: a topic renamed or merged since is found by the slug its old name left.
    topics: revision.topics ? { names: revision.topics, mayCreate: true } : undefined,
  } satisfies Partial<ArticleChanges>;
  const changes: ArticleChanges =
    request.mode === "full"
      ? {
          ...text,
          imageUrl: revision.imageUrl,
          images: revision.images.filter((url) => !removed.has(url)),
          imageDetails: keptDetails(revision.imageDetails, removed),
          video: revision.video,
          story: revision.story,
        }
      : {
          ...text,
          imageUrl: article.imageUrl,
          images: article.images,
          imageDetails: article.imageDetails,
          video: article.video,
          story: {
            standfirst: revision.story.standfirst,
            shareTitle: revision.story.shareTitle,
            shareDescription: revision.story.shareDescription,
          },
        };
  const restored = await updateArticle(
    db,
    newsId,
    { ...changes, baseVersion: request.baseVersion },
    { by: actorId, kind: "save", at: now },
  );
  if (restored === null) throw revisionNotFound();
}
