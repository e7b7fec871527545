import type { DB } from "~/server/db/db.server";
import { isPostgresUrl } from "~/server/platform/database-url.server";
import { listenOnPostgres } from "~/server/db/listen.server";
import { logger } from "~/server/platform/logger.server";
import {
  EVENTS_CHANNEL,
  followLocalWrites,
  newestEventId,
  pruneEvents,
  readEventsAfter,
  type OutboxEvent,
} from "./outbox.server";

/** What a process does with the events it reads; a consumer that throws is logged, and the rest still run. */
export type OutboxConsumer = (events: OutboxEvent[]) => void;

export type FollowerTiming = {
  /** The pause between reads when nothing wakes the follower earlier. */
  pollMs: number;
  /** How often this process prunes old events. */
  pruneEveryMs: number;
};

/** SQLite: polling alone, at most every 250 ms. PostgreSQL: woken by NOTIFY, polling every 2 s in case one is lost. */
export const FOLLOWER_TIMING = {
  sqlite: { pollMs: 250, pruneEveryMs: 10 * 60_000 },
  postgres: { pollMs: 2_000, pruneEveryMs: 10 * 60_000 },
} satisfies Record<string, FollowerTiming>;

const BATCH = 500;

export type OutboxFollower = {
  /** Starts after the newest event committed so far, then reads on. */
  start: () => Promise<void>;
  /** Stops reading and closes the LISTEN connection; until then it keeps the process alive. */
  stop: () => Promise<void>;
  /** Reads now; resolves once every event committed before the call has reached the consumers. */
  catchUp: () => Promise<void>;
  /** The id of the last event read. */
  position: () => number;
  /** When the last read succeeded (ms since the epoch), or null before the first. */
  lastReadAt: () => number | null;
  /** True while the follower runs (after start, before stop). */
  running: () => boolean;
};

/**
 * Follows the outbox of the database `databaseUrl` through the connection `db`: every event committed
 * after start reaches `consume`, once and in id order.
 */
export function createOutboxFollower(
  db: DB,
  databaseUrl: string,
  consume: OutboxConsumer,
  timing: FollowerTiming = isPostgresUrl(databaseUrl) ? FOLLOWER_TIMING.postgres : FOLLOWER_TIMING.sqlite,
): OutboxFollower {
  let position = 0;
  let lastReadAt: number | null = null;
  let running = false;
  let failing = false;
  let reading: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const stops: (() => Promise<void> | void)[] = [];

  const readAll = async () => {
    try {
      for (;;) {
        const events = await readEventsAfter(db, position, BATCH);
        lastReadAt = Date.now();
        if (events.length === 0) break;
        position = events.at(-1)!.id;
        try {
          consume(events);
        } catch (error) {
          logger.error({ err: error }, "an outbox consumer failed");
        }
        if (events.length < BATCH) break;
      }
      if (failing) logger.info("the outbox is readable again");
      failing = false;
    } catch (error) {
      if (!failing) logger.error({ err: error }, "cannot read the outbox; retrying");
      failing = true;
    }
  };

  /** One read at a time; a call during a read waits for it and then reads once more, for what committed meanwhile. */
  const read = (): Promise<void> => {
    if (!running) return Promise.resolve();
    if (!reading) {
      reading = readAll().finally(() => (reading = null));
      return reading;
    }
    queued ??= reading.then(() => {
      queued = null;
      return read();
    });
    return queued;
  };

  const prune = async () => {
    try {
      const removed = await pruneEvents(db);
      if (removed > 0) logger.debug({ removed }, "old outbox events pruned");
    } catch (error) {
      logger.warn({ err: error }, "could not prune old outbox events");
    }
  };

  const every = (ms: number, run: () => void) => {
    const timer = setInterval(run, ms);
    stops.push(() => clearInterval(timer));
  };

  return {
    async start() {
      if (running) return;
      position = await newestEventId(db);
      lastReadAt = Date.now();
      running = true;
      every(timing.pollMs, () => void read());
      // Spread over the interval, so processes started together do not prune together.
      every(timing.pruneEveryMs * (0.75 + Math.random() / 2), () => void prune());
      stops.push(followLocalWrites(db, read));
      if (isPostgresUrl(databaseUrl)) {
        const listener = listenOnPostgres(databaseUrl, EVENTS_CHANNEL, {
          notified: () => void read(),
          listening: () => void read(),
          lost: (error) =>
            logger.warn(
              { reason: error instanceof Error ? error.message : String(error) },
              "the outbox LISTEN connection broke; reconnecting",
            ),
        });
        stops.push(listener.close);
      }
    },
    async stop() {
      running = false;
      await Promise.all(stops.splice(0).map((stop) => stop()));
      await reading;
    },
    catchUp: read,
    position: () => position,
    lastReadAt: () => lastReadAt,
    running: () => running,
  };
}
