import { parseStringList } from "~/lib/json";
import { documentImages, storedBody } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import type { StagedFile } from "~/server/http/multipart-form.server";
import { deleteMedia, storeImageFile, storeVideoFile, type StoredImage } from "~/server/media/media.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { AppError } from "~/server/platform/app-error.server";
import { logger } from "~/server/platform/logger.server";
import { listRevisionMedia, revisionUses } from "./revisions.server";

/*
 * The media of articles: the files a form's uploads become, their removal, and which files an article,
 * only that article, or any article or kept revision refers to.
 */

/** Removes a refused request's or a deleted article's media; what the disk refuses is logged and swept at the next start. */
export async function removeMedia(storage: MediaStorage, urls: readonly string[]): Promise<void> {
  const left = await deleteMedia(storage, urls);
  if (left.length > 0) logger.warn({ files: left }, "media files could not be removed; the next start sweeps them");
}

/**
 * Stores the staged images and video as media. On a bad file or a failed write, removes what it stored
 * and throws: a file that is not what it claims beside the input it came from, a disk's refusal logged.
 */
export async function storeUploads(
  storage: MediaStorage,
  files: readonly StagedFile[],
): Promise<{ images: StoredImage[]; video: string | null }> {
  const stored: string[] = [];
  const images: StoredImage[] = [];
  let video: string | null = null;
  let current: StagedFile | undefined;
  try {
    for (const file of files) {
      current = file;
      if (file.field === "images") {
        const image = await storeImageFile(storage, file.path, file.filename);
        stored.push(image.url);
        images.push(image);
      } else if (file.field === "video") {
        video = await storeVideoFile(storage, file.path, file.filename);
        stored.push(video);
      }
    }
    return { images, video };
  } catch (error) {
    await removeMedia(storage, stored);
    if (!AppError.is(error)) throw error;
    if (error.code === "validation" && current)
      throw new AppError("validation", { fields: { [current.field]: error.message } });
    if (error.cause) logger.error({ err: error.cause }, "media storage refused a write");
    throw error;
  }
}

/** The media a row refers to: its images, the legacy image_url, its video and the images placed in its body. */
export function mediaOfRow(row: {
  images: string;
  image_url?: string | null;
  video: string | null;
  body: string | null;
}): string[] {
  const inBody = row.body ? documentImages(storedBody(row.body, "")) : [];
  return [
    ...parseStringList(row.images),
    ...(row.image_url ? [row.image_url] : []),
    ...(row.video ? [row.video] : []),
    ...inBody,
  ];
}

/** An image of the media library stays when stories stop using it, until an editor deletes it there (decision 036). */
async function inLibrary(db: DB, url: string): Promise<boolean> {
  return (await db.selectFrom("media").select("url").where("url", "=", url).executeTakeFirst()) !== undefined;
}

/**
 * The URLs among `urls` that no article but `id`, no kept revision and not the media library refers
 * to: only their files may be removed. Names stored before decision 006 could be shared by two articles.
 */
export async function mediaOnlyUsedBy(db: DB, id: string, urls: string[]): Promise<string[]> {
  const own: string[] = [];
  for (const url of urls) {
    const other = await db
      .selectFrom("news")
      .select("id")
      .where("id", "!=", id)
      .where((eb) =>
        eb.or([
          eb("video", "=", url),
          eb("image_url", "=", url),
          eb("images", "like", `%${JSON.stringify(url)}%`),
          eb("body", "like", `%${JSON.stringify(url)}%`),
        ]),
      )
      .executeTakeFirst();
    if (!other && !(await revisionUses(db, url)) && !(await inLibrary(db, url))) own.push(url);
  }
  return own;
}

/** Every media URL an article, a kept revision or the media library refers to (images, the legacy image_url, video, images in the body), for the sweep at start. */
export async function listReferencedMedia(db: DB): Promise<string[]> {
  const rows = await db.selectFrom("news").select(["images", "image_url", "video", "body"]).execute();
  const current = rows.flatMap(mediaOfRow);
  const library = (await db.selectFrom("media").select("url").execute()).map((row) => row.url);
  return [...current, ...(await listRevisionMedia(db)), ...library];
}
