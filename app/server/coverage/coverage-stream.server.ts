import type { CoverageMessage } from "~/lib/live-coverage";
import type { DB } from "~/server/db/db.server";
import { openEventStream } from "~/server/breaking/stream.server";
import { articleNotFound, ownershipOf } from "~/server/news/ownership.server";
import { COVERAGE_KIND, keptEventIds, newestEventId, readArticleEventsAfter } from "~/server/outbox/outbox.server";
import type { Config } from "~/server/platform/config.server";
import type { CoverageBus, CoverageNews } from "./coverage-bus.server";
import { readCoverage } from "./coverage-read.server";

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
  const text = events.flatMap((event) => (event.coverage ? [message(event.id, event.coverage)] : [])).join("");
  return { text, upTo: Math.max(seen, events.at(-1)?.id ?? seen) };
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
  return openEventStream(limits, request, clientIp, (send, close) => {
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
