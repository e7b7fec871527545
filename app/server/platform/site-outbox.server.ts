import { config } from "./config.server";
import { db } from "~/server/db/db.server";
import { pageCache } from "~/server/http/site-page-cache.server";
import { readCache } from "./site-read-cache.server";
import { breakingChange } from "~/server/live/breaking.server";
import { liveEvents } from "~/server/live/live-events.server";
import { createOutboxFollower, type OutboxFollower } from "~/server/outbox/follower.server";
import type { OutboxEvent } from "~/server/outbox/outbox.server";
import { startScheduler, type Scheduler } from "~/server/news/scheduler.server";
import { readiness, type Readiness } from "./health.server";
import { newsroom, siteClock } from "./site.server";
import { scheduleTrashPurge } from "~/server/news/trash-purge.server";

/*
 * This process's follower of the outbox and what it feeds: the page cache and the shared lists
 * (emptied by any change) and the live breaking streams; beside it, this process's scheduler, which
 * publishes scheduled articles when their time comes. server.ts reaches both through the bundle's
 * entry module.
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
let scheduler: Scheduler | undefined;
let stopTrashPurge: (() => void) | undefined;

function siteFollower(): OutboxFollower {
  follower ??= createOutboxFollower(db(), config().databaseUrl, consume);
  return follower;
}

export type SiteOutbox = { start: () => Promise<void>; stop: () => Promise<void>; readiness: () => Promise<Readiness> };

export const siteOutbox: SiteOutbox = {
  /** Before the server listens: from the newest event on; then the scheduler's first claim runs. */
  start: async () => {
    await siteFollower().start();
    scheduler ??= await startScheduler(db(), config().schedulerIntervalMs, siteClock());
    // The daily purge of the trash rides along: it starts and stops with this process's background work.
    stopTrashPurge ??= scheduleTrashPurge(newsroom, siteClock());
  },
  /** At shutdown, before the database closes. */
  stop: async () => {
    stopTrashPurge?.();
    stopTrashPurge = undefined;
    await scheduler?.stop();
    await follower?.stop();
  },
  readiness: () => readiness(db(), siteFollower()),
};
