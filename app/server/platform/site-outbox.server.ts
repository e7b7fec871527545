import { config } from "./config.server";
import { db } from "~/server/db/db.server";
import { pageCache } from "~/server/http/site-page-cache.server";
import { readCache } from "./site-read-cache.server";
import { breakingChange } from "~/server/live/breaking.server";
import { liveEvents } from "~/server/live/live-events.server";
import { createOutboxFollower, type OutboxFollower } from "~/server/outbox/follower.server";
import type { OutboxEvent } from "~/server/outbox/outbox.server";
import { readiness, type Readiness } from "./health.server";

/*
 * This process's follower of the outbox and what it feeds: the page cache and the shared lists (emptied by any change)
 * and the live breaking streams. server.ts reaches it through the bundle's entry module.
 */

function consume(events: OutboxEvent[]): void {
  pageCache.clear();
  readCache.clear();
  const bus = liveEvents();
  for (const event of events) {
    const live = breakingChange(event);
    if (live) bus.publish(live);
  }
}

let follower: OutboxFollower | undefined;

function siteFollower(): OutboxFollower {
  follower ??= createOutboxFollower(db(), config().databaseUrl, consume);
  return follower;
}

export type SiteOutbox = { start: () => Promise<void>; stop: () => Promise<void>; readiness: () => Promise<Readiness> };

export const siteOutbox: SiteOutbox = {
  /** Before the server listens: from the newest event on. */
  start: () => siteFollower().start(),
  /** At shutdown, before the database closes. */
  stop: async () => follower?.stop(),
  readiness: () => readiness(db(), siteFollower()),
};
