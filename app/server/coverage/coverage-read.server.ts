import type { Coverage, CoverageView, LiveUpdate } from "~/lib/live-coverage";
import { orderUpdates } from "~/lib/live-coverage";
import { storedBody } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import { executeCompiledWith } from "~/server/db/compiled-once.server";
import { newestEventId } from "~/server/outbox/outbox.server";
import type { LiveCoverageTable, LiveUpdatesTable } from "~/server/db/schema";

export function coverageOfRow(row: LiveCoverageTable): Coverage {
  return { state: row.state, summary: row.summary, startedAt: row.started_at, endedAt: row.ended_at };
}

export function updateOfRow(
  row: Omit<LiveUpdatesTable, "pinned" | "alert"> & { pinned: boolean | number; alert: boolean | number },
): LiveUpdate {
  return {
    id: row.id,
    body: storedBody(row.body, row.text),
    text: row.text,
    authorId: row.author_id,
    authorName: row.author_name,
    pinned: Boolean(row.pinned),
    alert: Boolean(row.alert),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A story's live coverage and its updates (pinned first, then newest first); no coverage: null and none. */
export async function readCoverage(db: DB, articleId: string): Promise<CoverageView> {
  const [coverage, rows] = await Promise.all([
    executeCompiledWith(db, "live coverage", [articleId], (standIn) =>
      db.selectFrom("live_coverage").selectAll().where("news_id", "=", standIn),
    ).then(([row]) => row),
    executeCompiledWith(db, "live updates", [articleId], (standIn) =>
      db
        .selectFrom("live_updates")
        .selectAll()
        .where("news_id", "=", standIn)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc"),
    ),
  ]);
  if (!coverage) return { coverage: null, updates: [] };
  return { coverage: coverageOfRow(coverage), updates: orderUpdates(rows.map(updateOfRow)) };
}

/**
 * What a story's page shows of its coverage, under the newest outbox event read before it: the page's
 * stream starts after that event, so nothing committed meanwhile is lost.
 */
export async function readLiveCoverage(db: DB, articleId: string): Promise<CoverageView & { eventId: number }> {
  const eventId = await newestEventId(db);
  return { eventId, ...(await readCoverage(db, articleId)) };
}

/** Which of `articleIds` are live now: for the 'مباشر' marks on cards, the ticker and the breaking list. */
export async function liveArticleIds(db: DB, articleIds: readonly string[]): Promise<Set<string>> {
  if (articleIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("live_coverage")
    .select("news_id")
    .where("state", "=", "live")
    .where("news_id", "in", articleIds)
    .execute();
  return new Set(rows.map((row) => row.news_id));
}
