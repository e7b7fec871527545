import type { CoverageChange } from "~/lib/live-coverage";
import type { DB } from "~/server/db/db.server";
import {
  eventMessage,
  followChannel,
  resumeAfter,
  type EventChannel,
  type EventStreams,
  type Opening,
} from "~/server/http/event-stream.server";
import { articleNotFound, ownershipOf } from "~/server/news/ownership.server";
import {
  COVERAGE_KIND,
  keptSince,
  newestEventId,
  readArticleEventsAfter,
  type OutboxEvent,
} from "~/server/outbox/outbox.server";
import { coverageOfRow, readCoverage, updateOfRow } from "./coverage-read.server";

/**
 * What a coverage stream reads from: the database for the snapshot and missed changes, the channel for
 * new ones (by story: the topic is the story's id), and the site's streams.
 */
export type CoverageStreams = { db: DB; channel: EventChannel<CoverageChange>; streams: EventStreams };

/** A reconnect that missed more of the story's changes than this gets a snapshot instead. */
const MAX_REPLAYED = 500;

/** The story's changes after event `seen`, or null when they cannot all be told (pruned, another database, too many). */
async function missedSince(db: DB, articleId: string, seen: number): Promise<Opening | null> {
  if (!(await keptSince(db, seen))) return null;
  const events = await readArticleEventsAfter(db, articleId, COVERAGE_KIND, seen, MAX_REPLAYED + 1);
  if (events.length > MAX_REPLAYED) return null;
  const changes = await asTheyStandNow(db, articleId, events);
  const text = changes.map(({ id, change }) => eventMessage(id, change)).join("");
  return { text, upTo: Math.max(seen, events.at(-1)?.id ?? seen) };
}

/**
 * Replayed changes carry only what is true now: an update posted or edited carries its current text,
 * one deleted since is told as its deletion, and a coverage opened or closed its current state. A
 * replay never tells again what the newsroom took back (an event keeps the change for a day).
 */
async function asTheyStandNow(
  db: DB,
  articleId: string,
  events: OutboxEvent[],
): Promise<{ id: number; change: CoverageChange }[]> {
  const updateIds = [
    ...new Set(
      events.flatMap((event) => (event.coverage && "update" in event.coverage ? [event.coverage.update.id] : [])),
    ),
  ];
  const [rows, coverage] = await Promise.all([
    updateIds.length === 0
      ? []
      : db
          .selectFrom("live_updates")
          .selectAll()
          .where("news_id", "=", articleId)
          .where("id", "in", updateIds)
          .execute(),
    events.some((event) => event.coverage && "coverage" in event.coverage)
      ? db.selectFrom("live_coverage").selectAll().where("news_id", "=", articleId).executeTakeFirst()
      : undefined,
  ]);
  const updates = new Map(rows.map((row) => [row.id, updateOfRow(row)]));
  return events.flatMap(({ id, coverage: change }): { id: number; change: CoverageChange }[] => {
    if (!change || change.type === "deleted") return change ? [{ id, change }] : [];
    if ("coverage" in change)
      return [{ id, change: coverage ? { type: change.type, coverage: coverageOfRow(coverage) } : change }];
    const update = updates.get(change.update.id);
    return [{ id, change: update ? { type: change.type, update } : { type: "deleted", id: change.update.id } }];
  });
}

/** The whole coverage under the newest event id read before it. */
async function snapshot(db: DB, articleId: string): Promise<Opening> {
  const upTo = await newestEventId(db);
  return { text: eventMessage(upTo, { type: "snapshot", ...(await readCoverage(db, articleId)) }), upTo };
}

/**
 * GET a published story's live coverage as Server-Sent Events: what was missed after Last-Event-ID (or
 * `?after=`), else a snapshot; then each change as the outbox reports it; a heartbeat every 25 s.
 */
export async function openCoverageStream(
  { db, channel, streams }: CoverageStreams,
  articleId: string,
  request: Request,
  clientIp: string,
): Promise<Response> {
  if ((await ownershipOf(db, articleId))?.status !== "published") throw articleNotFound();
  const seen = resumeAfter(request, "after");
  const opening = async () =>
    (seen === null ? null : await missedSince(db, articleId, seen)) ?? (await snapshot(db, articleId));
  return streams.open("readers", request, clientIp, followChannel(channel, articleId, opening));
}
