import cluster from "node:cluster";
import { clockOf, type Clock } from "./clock.server";
import { config, type Config } from "./config.server";
import { logger } from "./logger.server";
import { db } from "~/server/db/db.server";
import type { AccountsContext } from "~/server/accounts/accounts.server";
import { createAuth, type Auth } from "~/server/accounts/auth-instance.server";
import type { StreamSource } from "~/server/live/breaking-stream.server";
import { liveEvents } from "~/server/live/live-events.server";
import type { Newsroom } from "~/server/news/publishing.server";
import { mediaStorageFor, stagingDirOf } from "~/server/media/media-storage.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { createMailer, type Mailer } from "~/server/mail/mail.server";
import type { ResetMailing } from "~/server/accounts/password-reset.server";

/*
 * The process-wide instances, assembled from config() and db() for the edges (routes, server.ts).
 * Domain code never imports this module: it receives what it needs as arguments.
 */

let sharedAuth: Auth | undefined;
let sharedMailer: Mailer | null | undefined;

/** Outgoing mail through SMTP_URL; null when it is not set. */
export function mailer(): Mailer | null {
  if (sharedMailer === undefined) sharedMailer = createMailer(config().mail);
  return sharedMailer;
}

/** The site's one better-auth instance, on the process-wide connection. */
export function auth(): Auth {
  sharedAuth ??= createAuth(db(), config());
  return sharedAuth;
}

/** What reset links and invitations are sent with. */
export function resetMailing(): ResetMailing {
  const { baseUrl, authSecret } = config();
  return { db: db(), mailer: mailer(), baseUrl, authSecret };
}

export function accountsContext(): AccountsContext {
  const { baseUrl, authSecret } = config();
  return { auth: auth(), db: db(), baseUrl, authSecret };
}

let sharedStorage: MediaStorage | undefined;

/** Where media are stored: the media folder, or the bucket of MEDIA_S3_BUCKET. */
export function mediaStorage(): MediaStorage {
  sharedStorage ??= mediaStorageFor(config());
  return sharedStorage;
}

let sharedClock: Clock | undefined;

/** "Now" for the scheduler and the trash purge: the real clock, or in tests the one TEST_CLOCK_FILE moves. */
export function siteClock(): Clock {
  if (!sharedClock) {
    sharedClock = clockOf(config());
    if (config().testClockFile) logger.info({ file: config().testClockFile }, "the scheduler and the trash purge read the clock TEST_CLOCK_FILE moves");
  }
  return sharedClock;
}

export function newsroom(): Newsroom {
  return { db: db(), storage: mediaStorage(), stagingDir: stagingDirOf(config().mediaDir), clock: siteClock() };
}

/**
 * STREAM_MAX_TOTAL is for the whole server: each of its workers takes an even share. STREAM_MAX_PER_IP
 * holds in each process (decision 012).
 */
export function streamLimitsOfThisProcess(cfg: Pick<Config, "streams" | "workers">, inCluster = cluster.isWorker): Config["streams"] {
  const processes = inCluster ? cfg.workers : 1;
  return { perIp: cfg.streams.perIp, total: Math.max(1, Math.ceil(cfg.streams.total / processes)) };
}

export function breakingStreamSource(): StreamSource {
  return { db: db(), bus: liveEvents(), limits: streamLimitsOfThisProcess(config()) };
}
