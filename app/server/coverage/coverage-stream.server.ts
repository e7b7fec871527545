import type { CoverageChange, CoverageMessage } from "~/lib/live-coverage";
import type { DB } from "~/server/db/db.server";
import { openEventStream } from "~/server/breaking/stream.server";
import { articleNotFound, ownershipOf } from "~/server/news/ownership.server";
import { COVERAGE_KIND, keptEventIds, newestEventId, readArticleEventsAfter, type OutboxEvent } from "~/server/outbox/outbox.server";
import type { Config } from "~/server/platform/config.server";
import type { CoverageBus, CoverageNews } from "./coverage-bus.server";
import { coverageOfRow, readCoverage, updateOfRow } from "./coverage-read.server";

/** What a coverage stream reads from: the database for the snapshot and missed changes, the bus for new ones. */
export type CoverageStreams = { db: DB; bus: CoverageBus; limits: Config["streams"] };

/** A reconnect that missed more of the story's changes than this gets a snapshot instead. */
const MAX_REPLAYED = 500;

/** Event ids are outbox ids: the same on every instance, so Last-Event-ID resumes anywhere. */
const message = (id: number, body: CoverageMessage) => `id: ${id}\ndata: ${JSON.stringify(body)}\n\n`;

const encoder = new TextEncoder();
/** The last change told, as bytes: every open stream of the story sends the same ones (made once, not once per reader). */
let told: { id: number; bytes: Uint8Array } | null = null;
function toldBytes(news: CoverageNews): Uint8Array {
  if (told?.id !== news.id) told = { id: news.id, bytes: encoder.encode(message(news.id, news.change)) };
  return told.bytes;
}

/** Last-Event-ID, or (a page's first connection, which cannot set the header) `?after=`, the event its HTML reflects. */
function lastSeen(request: Request): number | null {
  const value = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("after") ?? "";
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** The story's changes after event `seen`, or null when they cannot all be told (pruned, another database, too many). */
async function missedSince(db: DB, articleId: string, seen: number): Promise<{ text: string; upTo: number } | null> {
  const { oldest, newest } = await keptEventIds(db);
  if (newest === null ? seen !== 0 : seen > newest) return null;
  if (oldest !== null && seen < oldest - 1) return null;
  const events = await readArticleEventsAfter(db, articleId, COVERAGE_KIND, seen, MAX_REPLAYED + 1);
  if (events.length > MAX_REPLAYED) return null;
  const changes = await asTheyStandNow(db, articleId, events);
  const text = changes.map(({ id, change }) => message(id, change)).join("");
  return { text, upTo: Math.max(seen, events.at(-1)?.id ?? seen) };
}

/**
 * Replayed changes carry only what is true now: an update posted or edited carries its current text,
 * one deleted since is told as its deletion, and a coverage opened or closed its current state. A
 * replay never tells again what the newsroom took back (an event keeps the change for a day).
 */
async function asTheyStandNow(db: DB, articleId: string, events: OutboxEvent[]): Promise<{ id: number; change: CoverageChange }[]> {
  const updateIds = [...new Set(events.flatMap((event) => (event.coverage && "update" in event.coverage ? [event.coverage.update.id] : [])))];
  const [rows, coverage] = await Promise.all([
    updateIds.length === 0 ? [] : db.selectFrom("live_updates").selectAll().where("news_id", "=", articleId).where("id", "in", updateIds).execute(),
    events.some((event) => event.coverage && "coverage" in event.coverage) ? db.selectFrom("live_coverage").selectAll().where("news_id", "=", articleId).executeTakeFirst() : undefined,
  ]);
  const updates = new Map(rows.map((row) => [row.id, updateOfRow(row)]));
  return events.flatMap(({ id, coverage: change }): { id: number; change: CoverageChange }[] => {
    if (!change || change.type === "deleted") return change ? [{ id, change }] : [];
    if ("coverage" in change) return [{ id, change: coverage ? { type: change.type, coverage: coverageOfRow(coverage) } : change }];
    const update = updates.get(change.update.id);
    return [{ id, change: update ? { type: change.type, update } : { type: "deleted", id: change.update.id } }];
  });
}

/** The whole coverage under the newest event id read before it. */
async function snapshot(db: DB, articleId: string): Promise<{ text: string; upTo: number }> {
  const upTo = await newestEventId(db);
  return { text: message(upTo, { type: "snapshot", ...(await readCoverage(db, articleId)) }), upTo };
}

/**
 * GET a published story's live coverage as Server-Sent Events: what was missed after Last-Event-ID (or
 * `?after=`), else a snapshot; then each change as the outbox reports it; a heartbeat every 25 s.
 */
export async function openCoverageStream(
  { db, bus, limits }: CoverageStreams,
  articleId: string,
  request: Request,
  clientIp: string,
): Promise<Response> {
  if ((await ownershipOf(db, articleId))?.status !== "published") throw articleNotFound();
  return openEventStream(limits, "readers", request, clientIp, (send, close) => {
    let ready = false;
    let sentUpTo = 0;
    const waiting: CoverageNews[] = [];
    // Subscribed before anything is read: a change committed after the read comes through here.
    const unsubscribe = bus.subscribe(articleId, (news) => {
      if (!ready) waiting.push(news);
      else if (news.id > sentUpTo) {
        sentUpTo = news.id;
        send(toldBytes(news));
      }
    });
    const seen = lastSeen(request);
    void (async () => (seen === null ? null : await missedSince(db, articleId, seen)) ?? (await snapshot(db, articleId)))()
      .then(({ text, upTo }) => {
        if (text) send(text);
        sentUpTo = upTo;
        for (const news of waiting) if (news.id > sentUpTo) send(message((sentUpTo = news.id), news.change));
        ready = true;
      })
      .catch(close);
    return unsubscribe;
  });
}
