import type { DB } from "~/server/db/db.server";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { recordArticleEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { articleState } from "./articles-write.server";
import { ensureShortLink } from "./short-links.server";

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
      .set((eb) => ({ status: "published", published_at: eb.fn.coalesce("published_at", eb.val(at)), publish_at: null }))
      .where("id", "=", id)
      .where("status", "=", "scheduled")
      .where("publish_at", "<=", at)
      .returning(["title", "category", "created_at", "published_at"])
      .executeTakeFirst();
    if (!row) return false;
    await ensureShortLink(trx, id);
    await syncSearchIndex(trx, id);
    const after = articleState(id, { ...row, status: "published" });
    await recordArticleEvent(trx, { ...after, status: "scheduled", publishedAt: null }, after);
    return true;
  });
}
