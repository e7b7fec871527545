import { listBreaking } from "~/server/news/reader-lists.server";
import type { DB } from "~/server/db/db.server";
import {
  eventMessage,
  followChannel,
  resumeAfter,
  type EventChannel,
  type EventStreams,
  type Opening,
} from "~/server/http/event-stream.server";
import { keptSince, newestEventId, readEventsAfter } from "~/server/outbox/outbox.server";
import { breakingChange, type BreakingChange } from "./changes.server";

/** What a stream reads from: the database for the snapshot and missed events, the channel for changes, and the site's streams. */
export type BreakingStreams = { db: DB; channel: EventChannel<BreakingChange>; streams: EventStreams };

/** A reconnect that missed more outbox events than this gets a snapshot instead. */
const MAX_REPLAYED_EVENTS = 1_000;

/** The breaking-list changes after outbox event `seen`, or null when they cannot all be told (pruned, another database, too many). */
async function missedSince(db: DB, seen: number): Promise<Opening | null> {
  if (!(await keptSince(db, seen))) return null;
  const events = await readEventsAfter(db, seen, MAX_REPLAYED_EVENTS + 1);
  if (events.length > MAX_REPLAYED_EVENTS) return null;
  const text = events
    .map((event) => breakingChange(event))
    .flatMap((change) => (change ? eventMessage(change.id, change.event) : []));
  return { text: text.join(""), upTo: events.at(-1)?.id ?? seen };
}

/**
 * The list as it is now, under the newest event id read before it: the list reflects at least every
 * event up to that id, and the events after it, sent next, set each item they touch to its final state.
 */
async function snapshot(db: DB): Promise<Opening> {
  const upTo = await newestEventId(db);
  return { text: eventMessage(upTo, { type: "snapshot", items: await listBreaking(db) }), upTo };
}

/**
 * GET /api/breaking/stream: Server-Sent Events. A snapshot (or, after a reconnect with Last-Event-ID,
 * exactly what was missed), then one event per change, a heartbeat comment every 25 s; everything is
 * released on close.
 */
export function openBreakingStream(
  { db, channel, streams }: BreakingStreams,
  request: Request,
  clientIp: string,
): Promise<Response> {
  const seen = resumeAfter(request);
  const opening = async () => (seen === null ? null : await missedSince(db, seen)) ?? (await snapshot(db));
  return streams.open("readers", request, clientIp, followChannel(channel, "", opening));
}
