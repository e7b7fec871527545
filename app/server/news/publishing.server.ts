import { MAX_IMAGES, type ArticleFormInput } from "~/lib/article-schema";
import type { ImageDetailsMap } from "~/lib/image-details";
import { imageDetailMessages, newsroomMessages, pushMessages, storyMessages } from "~/lib/newsroom-messages";
import type { NewsArticle } from "~/lib/news";
import { canEditArticle, canSendAlerts, editCondition, isEditor, statusesFor, type Actor } from "~/lib/permissions";
import { EDITORS } from "~/lib/audience";
import { AppError } from "~/server/platform/app-error.server";
import type { DB } from "~/server/db/db.server";
import { logger } from "~/server/platform/logger.server";
import type { Newsroom } from "./newsroom.server";
import type { StagedFile } from "~/server/http/multipart-form.server";
import { TOO_MANY_FILES } from "./submission-limits.server";
import { getArticle } from "./articles-read.server";
import { createArticle, updateArticle } from "./articles-write.server";
import { removeMedia, storeUploads } from "./article-media.server";
import { describeLibraryImages, forgetLibraryImages, libraryHolds, recordLibraryImages } from "./media-library.server";
import { requireBaseVersion } from "./base-version.server";
import { articleNotFound, articleNotYours } from "./ownership.server";
import { getArticleAccess } from "./review.server";
import { assertTopicsAllowed, type TopicsRequest } from "./topics.server";
import { alertLimitUnlessConfirmed } from "./push-alerts.server";
import { storeShareImage } from "./story-fields.server";
import type { NewsStatus } from "~/lib/news";

const invalid = (fields: Record<string, string>) => new AppError("validation", { fields });

/**
 * The images an edit keeps, in the order the form gives (the ones it leaves out follow in their order),
 * or null when the form names an image the article does not have: it may order, describe and remove only its own,
 * and place images of the media library (`fromLibrary`) among them.
 */
export function keptImagesInOrder(
  current: readonly string[],
  input: Pick<ArticleFormInput, "removeImages" | "imageOrder">,
  fromLibrary: ReadonlySet<string> = new Set(),
): string[] | null {
  if (input.removeImages.some((url) => !current.includes(url))) return null;
  const kept = current.filter((url) => !input.removeImages.includes(url));
  const order = input.imageOrder;
  if (!order) return kept;
  if (order.some((url) => !current.includes(url) && !fromLibrary.has(url))) return null;
  return [
    ...order.filter((url) => kept.includes(url) || fromLibrary.has(url)),
    ...kept.filter((url) => !order.includes(url)),
  ];
}

/** What the article has before the form: nothing for a new one. */
type Current = {
  kind: "create" | "edit";
  id: string | null;
  status: NewsStatus | null;
  images: readonly string[];
  video: string | null;
  imageDetails: ImageDetailsMap;
  shareImage: string | null;
};
const NEW_ARTICLE: Current = {
  kind: "create",
  id: null,
  status: null,
  images: [],
  video: null,
  imageDetails: {},
  shareImage: null,
};

/** Its own uploaded video (a link elsewhere is only a link). */
const hasLocalVideo = (current: Current) => current.video?.startsWith("/media/") === true;

/**
 * The article the checked form describes over `current`, with the media it stored: the one mapping of
 * a form's fields for a new article and an edit alike.
 */
/** The form's topics as the write asks for them: editors may create new ones, authors pick existing ones. */
function topicsOfForm(input: ArticleFormInput, actor: Actor): TopicsRequest | undefined {
  return input.topics && { names: input.topics, mayCreate: isEditor(actor) };
}

function articleOfForm(input: ArticleFormInput, actor: Actor, current: Current, uploads: Uploads) {
  const keepCurrentVideo = !input.removeVideo && hasLocalVideo(current);
  return {
    title: input.title,
    content: input.content,
    body: input.body,
    category: input.category,
    status: input.status,
    publishAt: input.publishAt,
    imageUrl: input.imageUrl,
    images: [...(keptImagesInOrder(current.images, input, uploads.fromLibrary) ?? []), ...uploads.images],
    imageDetails: input.imageDetails ? { ...current.imageDetails, ...input.imageDetails } : undefined,
    video: uploads.video ?? input.videoUrl ?? (keepCurrentVideo ? current.video : null),
    byline: input.byline,
    topics: topicsOfForm(input, actor),
    story: {
      standfirst: input.standfirst,
      // An empty slug field keeps the article's slug (or lets its first publication make one).
      slug: input.slug ?? undefined,
      shareTitle: input.shareTitle,
      shareDescription: input.shareDescription,
      shareImage: uploads.shareImage ?? (input.removeShareImage ? null : current.shareImage),
      noindex: input.noindex,
    },
    // A tick asks for the alert; no tick leaves an earlier request as it is.
    sendAlert: canSendAlerts(actor) && input.sendAlert ? true : undefined,
  };
}

/** Only editors may ask for an alert (permissions.ts). */
function assertAlertPermitted(actor: Actor, input: ArticleFormInput): void {
  if (input.sendAlert && !canSendAlerts(actor))
    throw new AppError("forbidden", {
      message: pushMessages.sendAlertEditorsOnly,
      fields: { sendAlert: pushMessages.sendAlertEditorsOnly },
    });
}

/**
 * The alerts per hour a form's write is held to: an alert past them (a breaking story published, or an
 * editor's tick on a published story) refuses the write until the form confirms it. The count is the
 * write's own (push-alerts.server.ts); a scheduled story's alert is counted when the scheduler
 * publishes it, unasked.
 */
async function alertLimitOf({ alertsPerHour }: Newsroom, input: ArticleFormInput): Promise<number | undefined> {
  return alertLimitUnlessConfirmed(alertsPerHour, input.confirmAlert);
}

/** The article form as its route read it (articleFormReading): its fields checked, its files staged. */
export type ArticleForm = { input: ArticleFormInput; files: readonly StagedFile[] };

/** The form's new files, and the images it takes from the media library. */
type Uploads = { images: string[]; video: string | null; shareImage: string | null; fromLibrary: ReadonlySet<string> };
type Prepared = { input: ArticleFormInput; uploads: Uploads; stored: string[]; alertsPerHour: number | undefined };

/**
 * Checks the form against the article as it is, then stores its files. A status the actor may not give
 * is refused before any file is stored, and so are an edit that names no base version and a field that
 * would change nothing (a removal of what is not there).
 */
async function prepare(
  newsroom: Newsroom,
  { input, files }: ArticleForm,
  actor: Actor,
  current: Current,
): Promise<Prepared> {
  const { db, storage, clock } = newsroom;
  if (!statusesFor(actor).includes(input.status))
    throw new AppError("forbidden", {
      message: newsroomMessages.statusNotAllowed,
      fields: { status: newsroomMessages.statusNotAllowed },
    });
  if (current.kind === "edit" && input.submissionId) throw invalid({ form: newsroomMessages.submissionIdOnEdit });
  if (current.kind === "edit") requireBaseVersion(input.baseVersion);
  const fromLibrary = await libraryHolds(
    db,
    (input.imageOrder ?? []).filter((url) => !current.images.includes(url)),
  );
  if (!keptImagesInOrder(current.images, input, fromLibrary))
    throw invalid({ imageDetails: imageDetailMessages.notOfArticle });
  if (input.removeVideo && !hasLocalVideo(current)) throw invalid({ video: newsroomMessages.noVideoToRemove });
  if (input.removeShareImage && !current.shareImage) throw invalid({ shareImage: storyMessages.noShareImageToRemove });
  if (files.filter((f) => f.field === "images").length > MAX_IMAGES) throw invalid(TOO_MANY_FILES);
  const topics = topicsOfForm(input, actor);
  if (topics) await assertTopicsAllowed(db, topics);
  assertAlertPermitted(actor, input);
  const alertsPerHour = await alertLimitOf(newsroom, input);
  // The share picture first: refused, it leaves nothing stored; stored, it goes if the other uploads fail.
  const shareImage = await storeShareImage(storage, files);
  const media = await storeUploads(storage, files).catch(async (error: unknown) => {
    if (shareImage) await removeMedia(storage, [shareImage]);
    throw error;
  });
  const uploads = { images: media.images.map((image) => image.url), video: media.video, shareImage, fromLibrary };
  const stored = [...uploads.images, ...(uploads.video ? [uploads.video] : []), ...(shareImage ? [shareImage] : [])];
  await recordLibraryImages(db, media.images, actor.id, clock.now()).catch(async (error: unknown) => {
    await removeMedia(storage, stored);
    throw error;
  });
  return { input, uploads, stored, alertsPerHour };
}

/** Takes back what a refused write stored: its files and their rows in the media library. */
async function discard({ db, storage }: Newsroom, stored: string[]): Promise<void> {
  await forgetLibraryImages(db, stored).catch((error: unknown) =>
    logger.error({ err: error }, "media library rows of a refused write could not be removed"),
  );
  await removeMedia(storage, stored);
}

/** A write that failed after the files were stored: an AppError as it is, anything else logged and told as `failed`. */
function writeFailure(error: unknown, failed: string): AppError {
  if (AppError.is(error)) return error;
  logger.error({ err: error }, "an article's write failed");
  return new AppError("internal", { message: failed });
}

/**
 * Publishing: the form (or the admin API) becomes an article by `actor`, its short link and its media,
 * or nothing at all. The status must be one the actor may give (permissions.ts).
 */
export async function publishArticle(
  newsroom: Newsroom,
  actor: Actor,
  form: ArticleForm,
): Promise<{ id: string; shortId: string | null }> {
  const { input, uploads, stored, alertsPerHour } = await prepare(newsroom, form, actor, NEW_ARTICLE);
  let created;
  try {
    created = await createArticle(newsroom.db, {
      ...articleOfForm(input, actor, NEW_ARTICLE, uploads),
      alertsPerHour,
      authorId: actor.id,
      submissionId: input.submissionId,
      createdAt: newsroom.clock.now(),
    });
  } catch (error) {
    await discard(newsroom, stored);
    throw writeFailure(error, newsroomMessages.publishFailed);
  }
  if (created.duplicate) {
    await discard(newsroom, stored);
    throw new AppError("conflict", { message: newsroomMessages.alreadySubmitted });
  }
  const details = articleOfForm(input, actor, NEW_ARTICLE, uploads).imageDetails;
  if (details) await describeLibraryImages(newsroom.db, details);
  return { id: created.id, shortId: created.shortId };
}

/** The article `actor` is about to edit, with the editor's note; 404 when there is none, 403 when it is not theirs to edit. */
export async function editableArticle(
  db: DB,
  id: string,
  actor: Actor,
): Promise<{ article: NewsArticle; reviewNote: string | null }> {
  const access = await getArticleAccess(db, id);
  if (!access) throw articleNotFound();
  if (!canEditArticle(actor, access)) throw articleNotYours();
  const article = await getArticle(db, id, EDITORS);
  if (!article) throw articleNotFound();
  return { article, reviewNote: access.reviewNote };
}

/** What an edit of `article` starts from. */
const currentOf = (article: NewsArticle): Current => ({
  kind: "edit",
  id: article.id,
  status: article.status,
  images: article.images,
  video: article.video,
  imageDetails: article.imageDetails,
  shareImage: article.story.shareImage,
});

/**
 * A draft's autosave as the changes a save of the same form would make, without files or removals
 * (autosave sends none: article-form-fields.ts): the one mapping of a form's fields, for autosave too.
 */
export async function autosavedChanges(db: DB, actor: Actor, article: NewsArticle, input: ArticleFormInput) {
  const current = currentOf(article);
  const fromLibrary = await libraryHolds(
    db,
    (input.imageOrder ?? []).filter((url) => !current.images.includes(url)),
  );
  if (!keptImagesInOrder(current.images, input, fromLibrary))
    throw invalid({ imageDetails: imageDetailMessages.notOfArticle });
  return articleOfForm(input, actor, current, { images: [], video: null, shareImage: null, fromLibrary });
}

/**
 * An edit by `actor` of `article`, as editableArticle gave it: the write itself checks again that the
 * actor may still edit it (permissions.ts) and give it the status asked for.
 */
export async function editArticle(
  newsroom: Newsroom,
  actor: Actor,
  article: NewsArticle,
  form: ArticleForm,
): Promise<{ version: number }> {
  const current = currentOf(article);
  const { input, uploads, stored, alertsPerHour } = await prepare(newsroom, form, actor, current);
  const changes = articleOfForm(input, actor, current, uploads);
  if (changes.images.length > MAX_IMAGES) {
    await discard(newsroom, stored);
    throw invalid(TOO_MANY_FILES);
  }
  let result;
  try {
    result = await updateArticle(
      newsroom.db,
      article.id,
      { ...changes, alertsPerHour, onlyIf: editCondition(actor), baseVersion: input.baseVersion },
      { by: actor.id, kind: "save", at: newsroom.clock.now() },
    );
  } catch (error) {
    await discard(newsroom, stored);
    throw writeFailure(error, newsroomMessages.updateFailed);
  }
  if (!result) {
    await discard(newsroom, stored);
    throw articleNotFound();
  }
  await removeMedia(newsroom.storage, result.unusedMedia);
  if (changes.imageDetails) await describeLibraryImages(newsroom.db, changes.imageDetails);
  return { version: result.version };
}
