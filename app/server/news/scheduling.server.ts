import type { DB } from "~/server/db/db.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { recordArticleEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { articleState } from "./articles-write.server";
import { alertOfWrite, queueAlert } from "./push-alerts.server";
import { ensureShortLink } from "./short-links.server";
import { removeEndedPlacements } from "./front-page.server";
import { ensureSlug } from "./story-fields.server";

/** How many due articles one claim takes at most; the rest wait for the next round. */
const CLAIM_BATCH = 50;

/**
 * Publishes the scheduled articles whose time has come, each in its own transaction with its short
 * link, search entry and outbox event. Any number of processes may run this at once: the update is
 * conditional on the article still being scheduled, so exactly one of them publishes it (PostgreSQL
 * re-checks the condition after waiting for the row's lock; SQLite runs one write at a time). Returns
 * the ids this call published.
 */
export async function publishDueArticles(db: DB, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const due = await db
    .selectFrom("news")
    .select("id")
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", at)
    .orderBy("publish_at")
    .limit(CLAIM_BATCH)
    .execute();
  const published: string[] = [];
  for (const { id } of due) {
    if (await claim(db, id, at)) published.push(id);
  }
  return published;
}

async function claim(db: DB, id: string, at: string): Promise<boolean> {
  return writeWithEvents(db, async (trx) => {
    const row = await trx
      .updateTable("news")
      .set((eb) => ({
        status: "published",
        published_at: eb.fn.coalesce("published_at", eb.val(at)),
        publish_at: null,
        version: eb("version", "+", 1),
      }))
      .where("id", "=", id)
      .where("status", "=", "scheduled")
      .where("publish_at", "<=", at)
      .returning(["title", "category", "created_at", "published_at", "slug", "send_alert"])
      .executeTakeFirst();
    if (!row) return false;
    await ensureShortLink(trx, id);
    const slug = await ensureSlug(trx, id, row.title, row.slug);
    await syncSearchIndex(trx, id);
    const alert = alertOfWrite({
      category: row.category,
      wasPublished: false,
      published: true,
      sendAlert: Boolean(row.send_alert),
    });
    if (alert) await queueAlert(trx, id, alert, new Date(at));
    const after = articleState(id, {
      title: row.title,
      category: row.category,
      created_at: row.created_at,
      published_at: row.published_at,
      status: "published",
      slug,
    });
    await recordArticleEvent(trx, { ...after, status: "scheduled", publishedAt: null }, after);
    return true;
  });
}

export type Scheduler = { stop: () => Promise<void> };

/**
 * Every process runs one: a claim at once, awaited (a server that was down when an article was due
 * has published it before it serves), then one every `intervalMs`. A failed round is logged and the
 * next one tries again. An article is due when its time has come on `clock`; so is the end of a front
 * page placement (front-page.server.ts).
 */
export async function startScheduler(db: DB, intervalMs: number, clock: Clock): Promise<Scheduler> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();

  const run = async () => {
    try {
      const now = clock.now();
      const published = await publishDueArticles(db, now);
      if (published.length > 0) logger.info({ ids: published }, "published scheduled articles");
      const ended = await removeEndedPlacements(db, now);
      if (ended > 0) logger.info({ count: ended }, "front page placements ended");
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
