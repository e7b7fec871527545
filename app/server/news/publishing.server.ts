import { articleFields, articleSchema, MAX_IMAGES, type ArticleFieldErrors, type ArticleFormInput } from "~/lib/article-schema";
import { articleFieldErrors } from "~/lib/field-errors";
import { imageDetailMessages, messages } from "~/lib/messages";
import type { NewsArticle } from "~/lib/news";
import { canEditArticle, editCondition, statusesFor, type Actor } from "~/lib/permissions";
import { AppError } from "~/server/platform/app-error.server";
import type { DB } from "~/server/db/db.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { deleteMedia, storeImageFile, storeVideoFile } from "~/server/media/media.server";
import { LIMITS, TOO_MANY_FILES } from "./submission-limits.server";
import { createArticle, deleteArticle, getArticle, updateArticle } from "./news.server";
import { EDITORS } from "~/lib/audience";
import { getArticleAccess, sendBack } from "./review.server";
import { reviewNoteSchema } from "~/lib/review-schema";
import type { MediaStorage } from "~/server/media/storage.server";
import { parseSubmission, type StagedFile, type Submission } from "~/server/http/multipart-form.server";

/** Where articles and their media are kept, and where uploads wait until they are checked. */
/** What the newsroom's writes need; `clock` stamps them (their creation, publication, saves). */
export type Newsroom = { db: DB; storage: MediaStorage; stagingDir: string; clock: Clock };

export type SubmissionResult = { ok: true; id: string; shortId?: string | null } | { ok: false; error: AppError };

function failure(error: AppError): SubmissionResult {
  return { ok: false, error };
}

const invalid = (fields: ArticleFieldErrors) => failure(new AppError("validation", { fields }));
export const articleNotFound = () => new AppError("not-found", { message: messages.newsNotFound });
const statusNotAllowed = () => failure(new AppError("forbidden", { message: messages.statusNotAllowed, fields: { status: messages.statusNotAllowed } }));
export const articleNotYours = () => new AppError("forbidden", { message: messages.articleNotYours });

/** An AppError from below is answered as it is (one caused by the disk is logged); anything else is a bug. */
function refusal(error: unknown): SubmissionResult {
  if (!AppError.is(error)) throw error;
  if (error.cause) logger.error({ err: error.cause }, "media storage refused a write");
  return failure(error);
}

/** Removes this request's or a deleted article's media; what the disk refuses is logged and swept at the next start. */
async function removeMedia(storage: MediaStorage, urls: readonly string[]): Promise<void> {
  const left = await deleteMedia(storage, urls);
  if (left.length > 0) logger.warn({ files: left }, "media files could not be removed; the next start sweeps them");
}

async function readForm(stagingDir: string, request: Request): Promise<Submission | SubmissionResult> {
  try {
    return await parseSubmission(request, stagingDir, LIMITS);
  } catch (error) {
    return refusal(error);
  }
}

/**
 * Who sent the form. The dashboard's page keeps its time field in the form, hidden, while a status other
 * than "scheduled" is chosen: posted without JavaScript, that time goes with the choice. A client of the
 * API (the page's own script among them) sends a time only with "scheduled".
 */
export type FormSender = "page" | "api";

/** Every text field an article form may carry; its files (images, video) are parseSubmission's. */
const FORM_FIELDS = new Set(Object.keys(articleFields.shape));

/** A field the form does not have is refused by its name: a client's typo must not be dropped without a word. */
function unknownField(submission: Submission): SubmissionResult | null {
  const name = Object.keys(submission.fields).find((field) => !FORM_FIELDS.has(field));
  return name === undefined ? null : failure(new AppError("validation", { message: messages.fieldUnknown, fields: { [name]: messages.fieldUnknown } }));
}

function validate(submission: Submission, sender: FormSender): { ok: true; input: ArticleFormInput } | { ok: false; errors: ArticleFieldErrors } {
  const one = (name: string) => submission.fields[name]?.[0];
  const timeGoesWithChoice = sender === "page" && one("status") !== "scheduled";
  const parsed = articleSchema.safeParse({
    title: one("title"),
    content: one("content"),
    body: one("body"),
    category: one("category"),
    status: one("status"),
    byline: one("byline"),
    videoUrl: one("videoUrl"),
    imageUrl: one("imageUrl"),
    removeImages: submission.fields.removeImages ?? [],
    imageOrder: submission.fields.imageOrder,
    imageAlt: submission.fields.imageAlt,
    imageCaption: submission.fields.imageCaption,
    imageCredit: submission.fields.imageCredit,
    removeVideo: one("removeVideo"),
    submissionId: one("submissionId") || undefined,
    publishAt: timeGoesWithChoice ? undefined : one("publishAt") || undefined,
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, errors: articleFieldErrors(parsed.error.issues) };
}

/** Stores the staged files as media; on any bad file or failed write, removes what it stored and says why. */
async function storeUploads(storage: MediaStorage, files: StagedFile[]): Promise<{ images: string[]; video: string | null } | SubmissionResult> {
  const stored: string[] = [];
  const images: string[] = [];
  let video: string | null = null;
  let current: StagedFile | undefined;
  try {
    for (const file of files) {
      current = file;
      if (file.field === "images") {
        const url = await storeImageFile(storage, file.path, file.filename);
        stored.push(url);
        images.push(url);
      } else if (file.field === "video") {
        video = await storeVideoFile(storage, file.path, file.filename);
        stored.push(video);
      }
    }
    return { images, video };
  } catch (error) {
    await removeMedia(storage, stored);
    // A file that is not what it claims: its message goes beside the input it came from.
    if (AppError.is(error) && error.code === "validation" && current) return invalid({ [current.field]: error.message });
    return refusal(error);
  }
}

type Prepared = { input: ArticleFormInput; images: string[]; video: string | null };

/**
 * The images an edit keeps, in the order the form gives (the ones it leaves out follow in their order),
 * or null when the form names an image the article does not have: it may order, describe and remove only its own.
 */
export function keptImagesInOrder(current: readonly string[], input: Pick<ArticleFormInput, "removeImages" | "imageOrder">): string[] | null {
  if (input.removeImages.some((url) => !current.includes(url))) return null;
  const kept = current.filter((url) => !input.removeImages.includes(url));
  const order = input.imageOrder;
  if (!order) return kept;
  if (order.some((url) => !current.includes(url))) return null;
  return [...order.filter((url) => kept.includes(url)), ...kept.filter((url) => !order.includes(url))];
}

const imageNotOfArticle = () => invalid({ imageDetails: imageDetailMessages.notOfArticle });

/** What the article has before the form: its images and its own uploaded video (none for a new article). */
type Current = { kind: "create" | "edit"; images: readonly string[]; localVideo: boolean };

/**
 * Reads and checks the form against the article as it is; a status the actor may not give is refused
 * before any file is stored, and so is a field that would change nothing (a removal of what is not there).
 */
async function prepare({ storage, stagingDir }: Newsroom, request: Request, actor: Actor, current: Current, sender: FormSender): Promise<Prepared | SubmissionResult> {
  const submission = await readForm(stagingDir, request);
  if ("ok" in submission) return submission;
  try {
    const unknown = unknownField(submission);
    if (unknown) return unknown;
    const checked = validate(submission, sender);
    if (!checked.ok) return invalid(checked.errors);
    if (!statusesFor(actor).includes(checked.input.status)) return statusNotAllowed();
    if (current.kind === "edit" && checked.input.submissionId) return invalid({ form: messages.submissionIdOnEdit });
    if (!keptImagesInOrder(current.images, checked.input)) return imageNotOfArticle();
    if (checked.input.removeVideo && !current.localVideo) return invalid({ video: messages.noVideoToRemove });
    if (submission.files.filter((f) => f.field === "images").length > MAX_IMAGES) return invalid(TOO_MANY_FILES);
    const uploads = await storeUploads(storage, submission.files);
    if ("ok" in uploads) return uploads;
    return { input: checked.input, images: uploads.images, video: uploads.video };
  } finally {
    await submission.discard();
  }
}

/**
 * Publishing: the form (or the admin API) becomes an article by `actor`, its short link and its media,
 * or nothing at all. The status must be one the actor may give (permissions.ts).
 */
export async function publishFromRequest(newsroom: Newsroom, request: Request, actor: Actor, sender: FormSender): Promise<SubmissionResult> {
  const { db, storage } = newsroom;
  const prepared = await prepare(newsroom, request, actor, { kind: "create", images: [], localVideo: false }, sender);
  if ("ok" in prepared) return prepared;
  const { input, images, video } = prepared;
  try {
    const created = await createArticle(db, {
      title: input.title,
      content: input.content,
      body: input.body,
      category: input.category,
      status: input.status,
      publishAt: input.publishAt,
      images,
      imageUrl: input.imageUrl,
      video: video ?? input.videoUrl,
      authorId: actor.id,
      byline: input.byline,
      submissionId: input.submissionId,
      createdAt: newsroom.clock.now(),
    });
    if (created.duplicate) {
      await removeMedia(storage, [...images, ...(video ? [video] : [])]);
      return failure(new AppError("conflict", { message: messages.alreadySubmitted }));
    }
    return { ok: true, id: created.id, shortId: created.shortId };
  } catch (error) {
    await removeMedia(storage, [...images, ...(video ? [video] : [])]);
    if (AppError.is(error)) return failure(error);
    logger.error({ err: error }, "publishing failed");
    return failure(new AppError("internal", { message: messages.publishFailed }));
  }
}

/** An edit by `actor`, who must be allowed to edit this article (permissions.ts) and to give it the status asked for. */
export async function editFromRequest(newsroom: Newsroom, request: Request, id: string, actor: Actor, sender: FormSender): Promise<SubmissionResult> {
  const { db, storage } = newsroom;
  const access = await getArticleAccess(db, id);
  if (!access) return failure(articleNotFound());
  if (!canEditArticle(actor, access)) return failure(articleNotYours());
  const current = await getArticle(db, id, EDITORS);
  if (!current) return failure(articleNotFound());
  const localVideo = current.video?.startsWith("/media/") === true;
  const prepared = await prepare(newsroom, request, actor, { kind: "edit", images: current.images, localVideo }, sender);
  if ("ok" in prepared) return prepared;
  const { input, images: newImages, video: newVideo } = prepared;
  const images = [...(keptImagesInOrder(current.images, input) ?? []), ...newImages];
  const stored = [...newImages, ...(newVideo ? [newVideo] : [])];
  if (images.length > MAX_IMAGES) {
    await removeMedia(storage, stored);
    return invalid(TOO_MANY_FILES);
  }
  const keepCurrentVideo = !input.removeVideo && localVideo;
  const video = newVideo ?? input.videoUrl ?? (keepCurrentVideo ? current.video : null);
  try {
    const result = await updateArticle(db, id, {
      title: input.title,
      content: input.content,
      body: input.body,
      category: input.category,
      status: input.status,
      publishAt: input.publishAt,
      onlyIf: editCondition(actor),
      imageUrl: input.imageUrl,
      images,
      imageDetails: input.imageDetails ? { ...current.imageDetails, ...input.imageDetails } : undefined,
      video,
      byline: input.byline,
    }, { by: actor.id, kind: "save", at: newsroom.clock.now() });
    if (!result) {
      await removeMedia(storage, stored);
      return failure(articleNotFound());
    }
    await removeMedia(storage, result.unusedMedia);
    return { ok: true, id };
  } catch (error) {
    await removeMedia(storage, stored);
    if (AppError.is(error)) return failure(error);
    logger.error({ err: error }, "update failed");
    return failure(new AppError("internal", { message: messages.updateFailed }));
  }
}

/**
 * Deletes the article for good (its short link and revisions), then the media files only it used at
 * best effort: a file that cannot be removed now is swept at the next start
 * (docs/decisions/006-media-names-and-cleanup.md). Deleting from the site moves to the trash instead
 * (trash.server.ts); this runs only from the trash.
 */
export async function deleteWithMedia({ db, storage }: Newsroom, id: string): Promise<boolean> {
  const deleted = await deleteArticle(db, id);
  if (!deleted) return false;
  await removeMedia(storage, deleted.media);
  return true;
}

export type Editable = { ok: true; article: NewsArticle; reviewNote: string | null } | { ok: false; error: AppError };

/** The article `actor` is about to edit, with the editor's note; 404 when there is none, 403 when it is not theirs to edit. */
export async function editableArticle(db: DB, id: string, actor: Actor): Promise<Editable> {
  const access = await getArticleAccess(db, id);
  if (!access) return { ok: false, error: articleNotFound() };
  if (!canEditArticle(actor, access)) return { ok: false, error: articleNotYours() };
  const article = await getArticle(db, id, EDITORS);
  if (!article) return { ok: false, error: articleNotFound() };
  return { ok: true, article, reviewNote: access.reviewNote };
}

/** An editor sends an article in review back to its author as a draft, with a note the author sees, at `now`. */
export async function sendBackFromForm(db: DB, id: string, form: FormData, now = new Date()): Promise<SubmissionResult> {
  const note = reviewNoteSchema.safeParse(form.get("note") ?? "");
  if (!note.success) {
    const message = note.error.issues[0]?.message ?? messages.reviewNoteRequired;
    return failure(new AppError("validation", { message, fields: { note: message } }));
  }
  if (!(await getArticleAccess(db, id))) return failure(articleNotFound());
  if (!(await sendBack(db, id, note.data, now))) return failure(new AppError("conflict", { message: messages.notInReview }));
  return { ok: true, id };
}
