import type { BreakingEvent } from "~/lib/breaking";
import { listBreaking } from "~/server/news/reader-lists.server";
import { breakingChange } from "./changes.server";
import type { Config } from "~/server/platform/config.server";
import { CACHE } from "~/server/platform/cache-control.server";
import type { DB } from "~/server/db/db.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import { keptEventIds, newestEventId, readEventsAfter } from "~/server/outbox/outbox.server";
import type { LiveEvent, LiveEventBus } from "./bus.server";
import { claimAddressStream, releaseAddressStream, type StreamPool } from "./stream-allowance.server";

/** What a stream reads from: the database for the snapshot and missed events, the bus for changes, and how many may be open. */
export type StreamSource = { db: DB; bus: LiveEventBus; limits: Config["streams"] };

const HEARTBEAT_MS = 25_000;
const RETRY_MS = 3_000;
/** A reconnect that missed more outbox events than this gets a snapshot instead. */
const MAX_REPLAYED_EVENTS = 1_000;

/** Open streams in this process, by pool: readers' and the newsroom's are counted apart. */
const open: Record<StreamPool, number> = { readers: 0, newsroom: 0 };
/** Each open stream's way to end with a retry hint, for a server that is stopping. */
const endings = new Set<() => void>();
let stopping = false;

export function openStreamCount(): number {
  return open.readers + open.newsroom;
}

/** Event ids are outbox ids: the same on every instance and across restarts. */
function message(id: number, event: BreakingEvent): string {
  return `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
}

function lastSeen(request: Request): number | null {
  const header = request.headers.get("last-event-id") ?? "";
  return /^\d{1,15}$/.test(header) ? Number(header) : null;
}

/**
 * The breaking-list changes after outbox event `seen`, read from the outbox, or null when they cannot
 * all be told: `seen` is in the future (another database, a restored backup), events after it were
 * pruned, or too many followed it. `upTo` is the last event id they cover.
 */
async function missedSince(db: DB, seen: number): Promise<{ events: LiveEvent[]; upTo: number } | null> {
  const { oldest, newest } = await keptEventIds(db);
  if (newest === null ? seen !== 0 : seen > newest) return null;
  // Pruning removes the oldest ids: a reader who saw the event just before the oldest kept missed none.
  if (oldest !== null && seen < oldest - 1) return null;
  const events = await readEventsAfter(db, seen, MAX_REPLAYED_EVENTS + 1);
  if (events.length > MAX_REPLAYED_EVENTS) return null;
  return { events: events.flatMap((event) => breakingChange(event) ?? []), upTo: events.at(-1)?.id ?? seen };
}

/**
 * The list as it is now, under the newest event id read before it: the list reflects at least every
 * event up to that id, and the events after it, sent next, set each item they touch to its final state.
 */
async function snapshot(db: DB): Promise<{ text: string; upTo: number }> {
  const upTo = await newestEventId(db);
  return { text: message(upTo, { type: "snapshot", items: await listBreaking(db) }), upTo };
}

/** What a new stream starts with: what it missed after Last-Event-ID, or a snapshot. */
async function opening(db: DB, seen: number | null): Promise<{ text: string; upTo: number }> {
  const missed = seen === null ? null : await missedSince(db, seen);
  if (!missed) return snapshot(db);
  return { text: missed.events.map((live) => message(live.id, live.event)).join(""), upTo: missed.upTo };
}

/** Ends every open stream: a last `retry:` line, so clients come back after the restart, then the end. */
export function endAllStreams(): void {
  stopping = true;
  for (const end of endings) end();
}

/**
 * What a stream does once it is open: `send` writes to it (bytes as they are: a message told to many
 * streams is encoded once), `close` ends it; the function it returns runs when it closes.
 */
export type StreamSetup = (send: (text: string | Uint8Array) => void, close: () => void) => () => void;

const refused = () => errorResponse(new AppError("unavailable", { retryAfterSeconds: 30 }));

/**
 * A Server-Sent Events response under the stream limits of `pool` (this process's share of the total,
 * and the client address's allowance on the whole instance): a `retry:` line, what `setup` sends, a
 * heartbeat comment every 25 s; at the client's leaving or the server's stop (then with a last `retry:`
 * line) everything is released.
 */
export async function openEventStream(
  limits: Config["streams"],
  pool: StreamPool,
  request: Request,
  clientIp: string,
  setup: StreamSetup,
): Promise<Response> {
  if (stopping || open[pool] >= limits.total) return refused();
  open[pool]++;
  const claimed = await claimAddressStream(pool, clientIp, limits.perIp);
  const release = () => {
    open[pool]--;
    if (claimed) releaseAddressStream(pool, clientIp);
  };
  if (!claimed || stopping) {
    release();
    return refused();
  }

  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string | Uint8Array) => {
        if (!closed) controller.enqueue(typeof text === "string" ? encoder.encode(text) : text);
      };
      let teardown = () => {};
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        teardown();
        clearInterval(heartbeat);
        endings.delete(end);
        request.signal.removeEventListener("abort", cleanup);
        release();
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      };
      const end = () => {
        send(`retry: ${RETRY_MS}\n\n`);
        cleanup();
      };
      endings.add(end);
      request.signal.addEventListener("abort", cleanup);
      if (request.signal.aborted) return cleanup();
      send(`retry: ${RETRY_MS}\n\n`);
      teardown = setup(send, () => cleanup());
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": CACHE.eventStream,
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    },
  });
}

/**
 * GET /api/breaking/stream: Server-Sent Events. A snapshot (or, after a reconnect with Last-Event-ID,
 * exactly what was missed), then one event per change, a heartbeat comment every 25 s; everything is
 * released on close.
 */
export function openBreakingStream({ db, bus, limits }: StreamSource, request: Request, clientIp: string): Promise<Response> {
  return openEventStream(limits, "readers", request, clientIp, (send, close) => {
    let ready = false;
    let sentUpTo = 0;
    const waiting: LiveEvent[] = [];
    // Subscribed before anything is read: an event committed after the read comes through here.
    const unsubscribe = bus.subscribe((live) => {
      if (!ready) waiting.push(live);
      else if (live.id > sentUpTo) send(message(live.id, live.event));
    });
    void opening(db, lastSeen(request))
      .then(({ text, upTo }) => {
        send(text);
        sentUpTo = upTo;
        for (const live of waiting) if (live.id > sentUpTo) send(message(live.id, live.event));
        ready = true;
      })
      .catch(close);
    return unsubscribe;
  });
}
