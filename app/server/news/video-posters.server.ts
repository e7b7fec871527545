import { messages } from "~/lib/messages";
import { mediaLibraryMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { canEditArticle, type Actor } from "~/lib/permissions";
import { videoSource } from "~/lib/video";
import { MULTIPART_FRAMING_BYTES, type Submission, type UploadLimits } from "~/server/http/multipart-form.server";
import { MAX_IMAGE_BYTES, storeImageFile } from "~/server/media/media.server";
import { recordSiteEvent } from "~/server/outbox/outbox.server";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { removeMedia } from "./article-media.server";
import { recordLibraryImages } from "./media-library.server";
import type { Newsroom } from "./newsroom.server";

/** The poster upload: the article's id, and one picture as `poster` (a frame the browser captured, or a file). */
export const POSTER_LIMITS: UploadLimits = {
  files: { poster: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge } },
  maxFiles: 1,
  maxFields: 1,
  tooMany: { poster: mediaLibraryMessages.posterOne },
  maxFieldBytes: 200,
  fieldTooLong: { articleId: mediaLibraryMessages.posterNoVideo },
  maxBodyBytes: MAX_IMAGE_BYTES + MULTIPART_FRAMING_BYTES,
};

/** Records `posterUrl`, an image of the library, as the poster of story `newsId`'s video at `videoUrl` (a file or a YouTube link); no other story's. */
export async function recordVideoPoster(
  db: DB,
  newsId: string,
  videoUrl: string,
  posterUrl: string,
  by: string | null,
  at: Date,
): Promise<void> {
  const row = { poster_url: posterUrl, set_by: by, set_at: at.toISOString() };
  await db
    .insertInto("video_posters")
    .values({ news_id: newsId, video_url: videoUrl, ...row })
    .onConflict((oc) => oc.columns(["news_id", "video_url"]).doUpdateSet(row))
    .execute();
}

/** The poster set for the video at `videoUrl`, if any. */
export async function posterOfVideo(db: DB, videoUrl: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("video_posters")
    .select("poster_url")
    .where("video_url", "=", videoUrl)
    .executeTakeFirst();
  return row?.poster_url ?? undefined;
}

/**
 * Sets the poster of the article's video (a file or a YouTube link) by one who may edit the article,
 * for that article alone (another story with the same video keeps its own): the picture is stored as
 * every article image and joins the media library; readers' pages change at once, on every instance.
 * Returns the poster's URL.
 */
export async function setVideoPoster(
  { db, storage, clock }: Newsroom,
  actor: Actor,
  submission: Submission,
): Promise<string> {
  const articleId = submission.fields.articleId?.[0] ?? "";
  if (articleId.includes("\0"))
    throw new AppError("validation", { message: messages.textHasNul, fields: { articleId: messages.textHasNul } });
  // Article ids are letters, digits, `-` and `_`: anything else (a NUL, which PostgreSQL refuses) names none.
  const article = /^[\w-]{1,100}$/.test(articleId)
    ? await db
        .selectFrom("news")
        .select(["author_id", "status", "video"])
        .where("id", "=", articleId)
        .executeTakeFirst()
    : undefined;
  if (!article) throw new AppError("not-found", { message: mediaLibraryMessages.posterNoVideo });
  if (!canEditArticle(actor, { authorId: article.author_id, status: article.status })) throw new AppError("forbidden");
  const video = article.video;
  if (!video || !videoSource(video))
    throw new AppError("validation", {
      message: mediaLibraryMessages.posterNoVideo,
      fields: { poster: mediaLibraryMessages.posterNoVideo },
    });
  const file = submission.files[0];
  if (!file)
    throw new AppError("validation", {
      message: mediaLibraryMessages.posterOne,
      fields: { poster: mediaLibraryMessages.posterOne },
    });
  const poster = await storeImageFile(storage, file.path, file.filename).catch((error: unknown) => {
    if (AppError.is(error) && error.code === "validation")
      throw new AppError("validation", { message: error.message, fields: { poster: error.message } });
    throw error;
  });
  try {
    const at = clock.now();
    await recordLibraryImages(db, [poster], actor.id, at);
    await db.transaction().execute(async (trx) => {
      await recordVideoPoster(trx, articleId, video, poster.url, actor.id, at);
      await recordSiteEvent(trx, "media-changed");
    });
  } catch (error) {
    await db
      .deleteFrom("media")
      .where("url", "=", poster.url)
      .execute()
      .catch(() => undefined);
    await removeMedia(storage, [poster.url]);
    throw error;
  }
  return poster.url;
}
