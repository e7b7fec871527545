import { randomBytes } from "node:crypto";
import type { BreakingEvent } from "~/lib/breaking";
import { listBreaking } from "./breaking.server";
import type { Config } from "~/server/platform/config.server";
import { CACHE } from "~/server/http/cache-policy.server";
import type { DB } from "~/server/db/db.server";
import { errorResponse } from "~/server/http/error-response.server";
import { AppError } from "~/server/platform/app-error.server";
import type { LiveEvent, LiveEventBus } from "./live-events.server";

/** What a stream reads from: the database for the snapshot, the bus for changes, and how many may be open. */
export type StreamSource = { db: DB; bus: LiveEventBus; limits: Config["streams"] };

const HEARTBEAT_MS = 25_000;
const RETRY_MS = 3_000;

/** Ids carry this process's boot id, so a reconnect after a restart gets a fresh snapshot. */
const BOOT = randomBytes(4).toString("hex");
const open = { total: 0, byIp: new Map<string, number>() };
/** Each open stream's way to end with a retry hint, for a server that is stopping. */
const endings = new Set<() => void>();
let stopping = false;

export function openStreamCount(): number {
  return open.total;
}

function message(id: number, event: BreakingEvent): string {
  return `id: ${BOOT}.${id}\ndata: ${JSON.stringify(event)}\n\n`;
}

function lastSeen(request: Request): number | null {
  const header = request.headers.get("last-event-id") ?? "";
  const match = /^([0-9a-f]+)\.(\d+)$/.exec(header);
  return match && match[1] === BOOT ? Number(match[2]) : null;
}

/** Ends every open stream: a last `retry:` line, so clients come back after the restart, then the end. */
export function endAllStreams(): void {
  stopping = true;
  for (const end of endings) end();
}

function release(ip: string) {
  open.total--;
  const count = (open.byIp.get(ip) ?? 1) - 1;
  if (count <= 0) open.byIp.delete(ip);
  else open.byIp.set(ip, count);
}

/**
 * GET /api/breaking/stream: Server-Sent Events. A snapshot (or, after a reconnect, what was missed),
 * then one event per change, a heartbeat comment every 25 s; everything is released on close.
 */
export function openBreakingStream({ db, bus, limits }: StreamSource, request: Request, clientIp: string): Response {
  if (stopping || open.total >= limits.total || (open.byIp.get(clientIp) ?? 0) >= limits.perIp) {
    return errorResponse(new AppError("unavailable", { retryAfterSeconds: 30 }));
  }
  open.total++;
  open.byIp.set(clientIp, (open.byIp.get(clientIp) ?? 0) + 1);

  const encoder = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let ready = false;
      const waiting: LiveEvent[] = [];
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const unsubscribe = bus.subscribe((live) => (ready ? send(message(live.id, live.event)) : waiting.push(live)));
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        endings.delete(end);
        request.signal.removeEventListener("abort", cleanup);
        release(clientIp);
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
      const seen = lastSeen(request);
      const missed = seen === null ? null : bus.since(seen);
      const startId = bus.latestId();
      const first = missed
        ? Promise.resolve(missed.map((live) => message(live.id, live.event)).join(""))
        : listBreaking(db).then((items) => message(startId, { type: "snapshot", items }));
      void first
        .then((text) => {
          send(text);
          const after = missed ? (missed.at(-1)?.id ?? seen ?? startId) : startId;
          for (const live of waiting) if (live.id > after) send(message(live.id, live.event));
          ready = true;
        })
        .catch(() => cleanup());
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
