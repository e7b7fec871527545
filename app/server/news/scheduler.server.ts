import type { DB } from "~/server/db/db.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { publishDueArticles } from "./scheduling.server";

export type Scheduler = { stop: () => Promise<void> };

/**
 * Every process runs one: a claim at once, awaited (a server that was down when an article was due
 * has published it before it serves), then one every `intervalMs`. A failed round is logged and the
 * next one tries again. An article is due when its time has come on `clock`.
 */
export async function startScheduler(db: DB, intervalMs: number, clock: Clock): Promise<Scheduler> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();

  const run = async () => {
    try {
      const published = await publishDueArticles(db, clock.now());
      if (published.length > 0) logger.info({ ids: published }, "published scheduled articles");
    } catch (error) {
      logger.error({ err: error }, "publishing scheduled articles failed");
    }
    if (!stopped) timer = setTimeout(() => void (round = run()), intervalMs).unref();
  };
  round = run();
  await round;

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
