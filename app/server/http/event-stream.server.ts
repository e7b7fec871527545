import type { Config } from "~/server/platform/config.server";
import { CACHE } from "~/server/platform/cache-control.server";
import { AppError } from "~/server/platform/app-error.server";
import { errorResponse } from "./error-response.server";
import { addressAllowances, type AddressAllowances, type StreamPool } from "./stream-allowance.server";

/*
 * Every Server-Sent Events stream of the site (breaking news, live coverage, presence on an edit form)
 * opens here: the limits, the `retry:` line, heartbeats, the end at the client's leaving or the server's
 * stop. What a stream sends is its domain's; the state is the site's (`site.streams`).
 */

export type { StreamPool } from "./stream-allowance.server";

const HEARTBEAT_MS = 25_000;
const RETRY_MS = 3_000;

/**
 * What a stream does once it is open: `send` writes to it (bytes as they are: a message told to many
 * streams is encoded once), `close` ends it; the function it returns runs when it closes.
 */
export type StreamSetup = (send: (text: string | Uint8Array) => void, close: () => void) => () => void;

/** This process's event streams. */
export type EventStreams = {
  /**
   * A Server-Sent Events response under the limits of `pool` (this process's share of the total, and
   * the client address's allowance on the whole instance), or the 503 with Retry-After over them.
   */
  open: (pool: StreamPool, request: Request, clientIp: string, setup: StreamSetup) => Promise<Response>;
  /** Ends every open stream with a last `retry:` line, so clients come back after the restart; refuses new ones. */
  endAll: () => void;
  openCount: () => number;
};

/** One message: `id:` (an outbox id, the same on every instance) when it has one, then its data as JSON. */
export function eventMessage(id: number | null, data: unknown): string {
  return `${id === null ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Where a reconnecting client left off: Last-Event-ID, or the query parameter `param` (a page's first
 * connection cannot set the header: it names the event its HTML reflects).
 */
export function resumeAfter(request: Request, param?: string): number | null {
  const value =
    request.headers.get("last-event-id") ?? (param ? new URL(request.url).searchParams.get(param) : null) ?? "";
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

const refused = () => errorResponse(new AppError("unavailable", { retryAfterSeconds: 30 }));

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": CACHE.eventStream,
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
};

export function createEventStreams(
  limits: Config["streams"],
  allowances: AddressAllowances = addressAllowances(),
): EventStreams {
  const open: Record<StreamPool, number> = { readers: 0, newsroom: 0 };
  /** Each open stream's way to end with a retry hint, for a server that is stopping. */
  const endings = new Set<() => void>();
  let stopping = false;
  const encoder = new TextEncoder();

  return {
    async open(pool, request, clientIp, setup) {
      if (stopping || open[pool] >= limits.total) return refused();
      open[pool]++;
      const claimed = await allowances.claim(pool, clientIp, limits.perIp);
      const release = () => {
        open[pool]--;
        if (claimed) allowances.release(pool, clientIp);
      };
      if (!claimed || stopping) {
        release();
        return refused();
      }

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
      return new Response(body, { headers: HEADERS });
    },
    endAll() {
      stopping = true;
      for (const end of endings) end();
    },
    openCount: () => open.readers + open.newsroom,
  };
}

/** A message told to every open stream of a topic, under its outbox id, its bytes made once for all of them. */
export type Told<T> = { id: number; data: T; bytes: () => Uint8Array };

/**
 * Messages under outbox ids, by topic (a story's coverage; the one breaking list), for this process's
 * open streams: the outbox follower publishes in outbox order, whichever process made the change.
 */
export type EventChannel<T> = {
  publish: (id: number, data: T, topic?: string) => void;
  subscribe: (listener: (told: Told<T>) => void, topic?: string) => () => void;
  listenerCount: () => number;
};

export function createEventChannel<T>(): EventChannel<T> {
  const byTopic = new Map<string, Set<(told: Told<T>) => void>>();
  const encoder = new TextEncoder();
  let count = 0;
  return {
    publish(id, data, topic = "") {
      const listeners = byTopic.get(topic);
      if (!listeners) return;
      let bytes: Uint8Array | undefined;
      const told: Told<T> = { id, data, bytes: () => (bytes ??= encoder.encode(eventMessage(id, data))) };
      for (const listener of listeners) listener(told);
    },
    subscribe(listener, topic = "") {
      const set = byTopic.get(topic) ?? new Set();
      byTopic.set(topic, set.add(listener));
      count++;
      return () => {
        if (!set.delete(listener)) return;
        count--;
        if (set.size === 0) byTopic.delete(topic);
      };
    },
    listenerCount: () => count,
  };
}

/** What a resumable stream starts with (what the client missed, or a snapshot), and the last outbox id it covers. */
export type Opening = { text: string; upTo: number };

/**
 * A stream that starts with `opening` and then tells each message of `channel`'s `topic` after it.
 * Subscribed before `opening` reads anything: a message published meanwhile waits, and is told if the
 * opening did not cover it.
 */
export function followChannel<T>(
  channel: EventChannel<T>,
  topic: string,
  opening: () => Promise<Opening>,
): StreamSetup {
  return (send, close) => {
    let ready = false;
    let sentUpTo = 0;
    const waiting: Told<T>[] = [];
    const tell = (told: Told<T>) => {
      if (told.id <= sentUpTo) return;
      sentUpTo = told.id;
      send(told.bytes());
    };
    const unsubscribe = channel.subscribe((told) => (ready ? tell(told) : waiting.push(told)), topic);
    opening()
      .then(({ text, upTo }) => {
        if (text) send(text);
        sentUpTo = upTo;
        for (const told of waiting) tell(told);
        ready = true;
      })
      .catch(close);
    return unsubscribe;
  };
}
