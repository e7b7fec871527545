import cluster from "node:cluster";
import { clockOf, type Clock } from "~/server/platform/clock.server";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import type { Config } from "~/server/platform/config.server";
import { logger } from "~/server/platform/logger.server";
import { createReadCache, type ReadCache } from "~/server/platform/read-cache.server";
import { openBatchWriter, openDatabase, type BatchWriter, type DB } from "~/server/db/db.server";
import type { AccountsContext } from "~/server/accounts/accounts.server";
import { createAuth, type Auth } from "~/server/accounts/auth-instance.server";
import type { ResetMailing } from "~/server/accounts/password-reset.server";
import type { CompressionThreads } from "~/server/http/compression-threads.server";
import { createCompressionThreads } from "~/server/http/encoding.server";
import { PageCache } from "~/server/http/page-cache.server";
import { createEventChannel, createEventStreams, type EventStreams } from "~/server/http/event-stream.server";
import type { BreakingStreams } from "~/server/breaking/stream.server";
import { createMailer, type Mailer } from "~/server/mail/mail.server";
import { mediaStorageFor, stagingDirOf } from "~/server/media/media-storage.server";
import type { MediaStorage } from "~/server/media/storage.server";
import type { Newsroom } from "~/server/news/newsroom.server";
import type { CoverageStreams } from "~/server/coverage/coverage-stream.server";
import { createPresenceMap, type PresenceMap } from "~/server/presence/presence-map.server";
import { createViewBuffer, type ViewBuffer } from "~/server/visits/view-buffer.server";

/**
 * The whole site as one process holds it, built once by `createSite` and handed to every loader and
 * action through the load context (`siteContext`). Domain code receives its parts as arguments.
 */
export type Site = {
  config: Config;
  db: DB;
  auth: Auth;
  /** Outgoing mail through SMTP_URL; null when it is not set. */
  mailer: Mailer | null;
  /** The media folder, or the bucket of MEDIA_S3_BUCKET. */
  media: MediaStorage;
  /** "Now" for the newsroom's writes, the scheduler and the trash purge (in tests, the clock TEST_CLOCK_FILE moves). */
  clock: Clock;
  newsroom: Newsroom;
  accounts: AccountsContext;
  resetMailing: ResetMailing;
  /** Anonymous pages as sent; emptied by every change the outbox reports. */
  pageCache: PageCache;
  /** The threads whole responses are encoded on, off the event loop (decision 029). */
  compression: CompressionThreads;
  /** The lists every reader page repeats and the site's settings; emptied by every change the outbox reports. */
  readCache: ReadCache;
  /** This process's open event streams, under its share of the limits; ended at a stop (decision 044). */
  streams: EventStreams;
  /** Changes to the breaking list, as the outbox reports them, for this process's open streams. */
  breakingStreams: BreakingStreams;
  /** Who has each story's edit form open, as the outbox reports it, for the streams telling the forms. */
  editing: { db: DB; presence: PresenceMap; streams: EventStreams };
  /** Live coverage changes, as the outbox reports them, for this process's readers of each story (decision 040). */
  coverage: CoverageStreams;
  /** Where the heavy background writes go, readers' views and push deliveries: on SQLite, off the event loop (decision 041). */
  batchWriter: BatchWriter;
  /** Readers' views, held and written in batches (decision 039). */
  views: ViewBuffer;
};

export function createSite(config: Config): Site {
  const db = openDatabase(config.databaseUrl, config.databasePoolSize);
  const auth = createAuth(db, config);
  const mailer = createMailer(config.mail);
  const media = mediaStorageFor(config);
  const clock = clockOf(config);
  if (config.testClockFile)
    logger.info(
      { file: config.testClockFile },
      "the newsroom, the scheduler and the trash purge read the clock TEST_CLOCK_FILE moves",
    );
  const readCache = createReadCache();
  const streams = createEventStreams(streamLimitsOfThisProcess(config));
  const { baseUrl, authSecret } = config;
  const batchWriter = openBatchWriter(config.databaseUrl, db);
  return {
    config,
    db,
    auth,
    mailer,
    media,
    clock,
    newsroom: {
      db,
      storage: media,
      stagingDir: stagingDirOf(config.mediaDir),
      clock,
      alertsPerHour: async () => (await cachedSiteSettings(db, readCache)).settings.alertsPerHour,
    },
    accounts: { auth, db, baseUrl, authSecret },
    resetMailing: { db, mailer, baseUrl, authSecret },
    pageCache: new PageCache(config.pageCacheSeconds * 1000),
    compression: createCompressionThreads(),
    readCache,
    streams,
    breakingStreams: { db, channel: createEventChannel(), streams },
    editing: { db, presence: createPresenceMap(clock), streams },
    coverage: { db, channel: createEventChannel(), streams },
    batchWriter,
    views: createViewBuffer(batchWriter.db, authSecret, clock),
  };
}

/**
 * STREAM_MAX_TOTAL is for the whole server: each of its workers takes an even share. STREAM_MAX_PER_IP
 * holds for the whole server, counted by the cluster's primary (decision 012).
 */
export function streamLimitsOfThisProcess(
  cfg: Pick<Config, "streams" | "workers">,
  inCluster = cluster.isWorker,
): Config["streams"] {
  const processes = inCluster ? cfg.workers : 1;
  return { perIp: cfg.streams.perIp, total: Math.max(1, Math.ceil(cfg.streams.total / processes)) };
}
