import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { deleteWithMedia, type Newsroom } from "./publishing.server";
import { isTrashed, listExpiredTrash } from "./trash.server";

/** An admin's "delete for good": only an article in the trash; false when there is none there. */
export async function deleteFromTrash(newsroom: Newsroom, id: string): Promise<boolean> {
  if (!(await isTrashed(newsroom.db, id))) return false;
  return deleteWithMedia(newsroom, id);
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
    void purgeExpiredTrash(newsroom, clock.now()).catch((error: unknown) => logger.warn({ err: error }, "could not purge the trash"));
  // Spread over the interval, so processes started together do not purge together.
  const timer = setInterval(run, everyMs * (0.75 + Math.random() / 2));
  timer.unref();
  return () => clearInterval(timer);
}
