import { logger } from "~/server/platform/logger.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Clock } from "~/server/platform/clock.server";
import type { DB } from "~/server/db/db.server";
import { pruneViews, recordViews } from "./visits.server";
import { viewOf, type ViewInput, type View } from "./view.server";

/** How often a process writes its views, the most it writes at once, and the most it holds while the database is away. */
export const VIEW_BUFFERING = { flushMs: 1_000, batch: 2_000, held: 50_000 };
const PRUNE_EVERY_MS = 10 * 60_000;

export type ViewBuffer = {
  /** Keeps the view for the next batch; refused (503) when the database has been away long enough to fill the buffer. */
  add: (input: ViewInput) => void;
  start: () => void;
  /** Writes what is held, then stops: at shutdown, before the database closes. */
  stop: () => Promise<void>;
  /** Writes what is held now. */
  flush: () => Promise<void>;
};

/** Each process's views, held in memory (keyed hashes only) and written in batches by `recordViews` (on the site's batch writer). */
export function createViewBuffer(db: DB, secret: string, clock: Clock, options = VIEW_BUFFERING): ViewBuffer {
  let held: View[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let lastPrune = 0;

  const writeHeld = async () => {
    while (held.length > 0) {
      const batch = held.slice(0, options.batch);
      try {
        await recordViews(db, batch);
      } catch (error) {
        logger.warn({ err: error, views: batch.length }, "views not written; kept for the next batch");
        return;
      }
      held = held.slice(batch.length);
    }
    const now = clock.now().getTime();
    if (now - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = now;
      await pruneViews(db, clock.now()).catch((error: unknown) => logger.warn({ err: error }, "view pruning failed"));
    }
  };
  const flush = () => (writing = writing.then(writeHeld));

  return {
    add: (input) => {
      if (held.length >= options.held) throw new AppError("unavailable", { retryAfterSeconds: 60 });
      held.push(viewOf(secret, input));
      if (held.length >= options.batch) void flush();
    },
    start: () => {
      timer ??= setInterval(() => void flush(), options.flushMs);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await flush();
    },
    flush,
  };
}
