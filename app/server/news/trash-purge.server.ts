import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import type { Newsroom } from "./newsroom.server";
import { deleteArticle } from "./articles-write.server";
import { removeMedia } from "./article-media.server";
import { isTrashed, listExpiredTrash, notInTrash } from "./trash.server";

/**
 * Deletes the article for good (its short link and revisions), then the media files only it used at
 * best effort: a file that cannot be removed now is swept at the next start
 * (docs/decisions/006-media-names-and-cleanup.md). Deleting from the site moves to the trash instead
 * (trash.server.ts); this runs only from the trash. False when there is no such article.
 */
async function deleteWithMedia({ db, storage }: Newsroom, id: string): Promise<boolean> {
  const deleted = await deleteArticle(db, id);
  if (!deleted) return false;
  await removeMedia(storage, deleted.media);
  return true;
}

/** An admin's "delete for good": only an article in the trash; not-found when there is none there. */
export async function deleteFromTrash(newsroom: Newsroom, id: string): Promise<void> {
  if (!(await isTrashed(newsroom.db, id)) || !(await deleteWithMedia(newsroom, id))) throw notInTrash();
}

/**
 * Deletes for good, with their media and revisions, the articles in the trash for more than 30 days
 * at `now`. Any number of processes may run it at once: an article already gone is skipped.
 */
export async function purgeExpiredTrash(newsroom: Newsroom, now: Date): Promise<number> {
  let purged = 0;
  for (const id of await listExpiredTrash(newsroom.db, now)) {
    if (await deleteWithMedia(newsroom, id)) purged++;
  }
  if (purged > 0) logger.info({ purged }, "articles deleted for good after 30 days in the trash");
  return purged;
}

const PURGE_EVERY_MS = 24 * 60 * 60 * 1000;

/** The daily purge of this process, at `clock`'s time: started with the server, stopped at shutdown. */
export function scheduleTrashPurge(newsroom: Newsroom, clock: Clock, everyMs = PURGE_EVERY_MS): () => void {
  const run = () =>
    void purgeExpiredTrash(newsroom, clock.now()).catch((error: unknown) =>
      logger.warn({ err: error }, "could not purge the trash"),
    );
  // Spread over the interval, so processes started together do not purge together.
  const timer = setInterval(run, everyMs * (0.75 + Math.random() / 2));
  timer.unref();
  return () => clearInterval(timer);
}
