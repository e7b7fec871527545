import path from "node:path";
import { AppError } from "~/server/platform/app-error.server";
import { clockOf } from "~/server/platform/clock.server";
import { ConfigurationError, type Config } from "~/server/platform/config.server";
import { createAuth } from "~/server/accounts/auth-instance.server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { connectionShortfall } from "~/server/db/connection-budget.server";
import { databaseFile, isPostgresUrl } from "~/server/platform/database-url.server";
import { isDatabaseFull } from "~/server/db/faults.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { assertUsableDatabase } from "~/server/db/preflight.server";
import { withStartupLock } from "~/server/db/startup-lock.server";
import { isEmpty, seedDemoContent } from "~/server/demo/seed-demo.server";
import { logger } from "~/server/platform/logger.server";
import { sweepMedia } from "~/server/media/media-sweep.server";
import { mediaStorageFor, stagingDirOf } from "~/server/media/media-storage.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { listReferencedMedia } from "~/server/news/article-media.server";
import { purgeExpiredTrash } from "~/server/news/trash-purge.server";
import { helperRoles, processesOf } from "./cluster.server";

/**
 * Everything that must be true before the server listens: media storage that answers, a database
 * that answers and is ours (or empty), schema up to date, demo content when wanted. Servers starting
 * together on one database take turns (withStartupLock), so migrations and the demo content happen once.
 */
export async function prepareData(cfg: Config): Promise<void> {
  const storage = mediaStorageFor(cfg);
  await assertReachableStorage(storage, cfg);
  try {
    await prepareDatabase(cfg, storage);
  } catch (error) {
    if (!AppError.is(error) || error.code !== "storage-full") throw error;
    throw new ConfigurationError(
      fullDiskProblem(isDatabaseFull(error) ? databaseDisk(cfg.databaseUrl) : `the disk holding ${cfg.mediaDir}`),
    );
  }
}

function databaseDisk(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) return `the disk of the PostgreSQL server at ${new URL(databaseUrl).host}`;
  return `the disk holding ${path.dirname(path.resolve(databaseFile(databaseUrl)))}`;
}

/** A full disk at start, as one line an operator acts on. */
function fullDiskProblem(disk: string): string {
  return `Cannot start: ${disk} is full. Free some space there, then start again.`;
}

async function prepareDatabase(cfg: Config, storage: MediaStorage): Promise<void> {
  const db = openDatabase(cfg.databaseUrl, cfg.databasePoolSize);
  try {
    await assertUsableDatabase(db, cfg.databaseUrl);
    if (isPostgresUrl(cfg.databaseUrl)) await warnOfConnectionShortfall(db, cfg);
    await withStartupLock(cfg.databaseUrl, async () => {
      const applied = await migrateToLatest(db);
      if (applied.length > 0) logger.info({ applied }, "migrations applied");
      const clock = clockOf(cfg);
      await purgeExpiredTrash({ db, storage, stagingDir: stagingDirOf(cfg.mediaDir), clock }, clock.now());
      await sweepMediaLeftovers(cfg.mediaDir, storage, await listReferencedMedia(db));
      if (cfg.demoContent && (await isEmpty(db))) {
        const demo = await seedDemoContent(db, createAuth(db, cfg), storage);
        console.log(
          [
            "",
            `Demo content: ${demo.articles} articles and a demo admin account were created.`,
            `  email:    ${demo.email}`,
            `  password: ${demo.password}`,
            "This password is shown only once. Start with DEMO_CONTENT=off for a real site.",
            "",
          ].join("\n"),
        );
      }
    });
  } finally {
    await db.destroy();
  }
}

/** Pools that cannot all fit in max_connections fail requests later, under load: said at start instead. */
async function warnOfConnectionShortfall(db: DB, cfg: Config): Promise<void> {
  const views = cfg.viewsPort !== null;
  const processes = cfg.workers + helperRoles(cfg.workers, views).length;
  const shortfall = await connectionShortfall(db, processes, cfg.databasePoolSize);
  if (!shortfall) return;
  const each =
    processes === 1
      ? "in its one process"
      : `in each of its ${processes} processes: ${processesOf(cfg.workers, views)}`;
  logger.warn(
    `PostgreSQL connections: this instance may open ${shortfall.wanted} (DATABASE_POOL_SIZE ${cfg.databasePoolSize} + 1 for change notifications, ${each}) and ${shortfall.open} are open already, but the server allows ${shortfall.allowed} (max_connections less the superusers' reserve). Lower DATABASE_POOL_SIZE or WORKERS, or raise max_connections: see docs/deploy.md.`,
  );
}

/** Removes what a crash left in staging and in the storage; a disk or bucket that refuses is reported and never stops the start. */
async function sweepMediaLeftovers(mediaDir: string, storage: MediaStorage, referencedUrls: string[]): Promise<void> {
  try {
    const { staged, orphans } = await sweepMedia(stagingDirOf(mediaDir), storage, referencedUrls);
    if (staged.files + orphans.names.length === 0) return;
    logger.info(
      {
        stagedFiles: staged.files,
        stagedBytes: staged.bytes,
        orphanFiles: orphans.names.length,
        orphanBytes: orphans.bytes,
      },
      "removed media left by an interrupted upload or publish",
    );
    logger.debug({ orphans: orphans.names }, "orphan media removed");
  } catch (error) {
    logger.warn({ err: error, mediaDir }, "could not sweep the media storage; starting anyway");
  }
}

/** A bucket that cannot be reached with the configured keys is a configuration error, told before listening. */
async function assertReachableStorage(storage: MediaStorage, cfg: Config): Promise<void> {
  try {
    await storage.verify();
  } catch (error) {
    if (!cfg.mediaS3) throw error;
    const { bucket, endpoint } = cfg.mediaS3;
    const where = `bucket ${bucket} at ${endpoint ?? "AWS S3"}`;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason =
      status === 404
        ? "the bucket does not exist: create it, or correct MEDIA_S3_BUCKET"
        : status === 401 || status === 403
          ? "the keys were refused: check MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY and MEDIA_S3_REGION"
          : `it did not answer (${error instanceof Error ? error.message : String(error)}): check MEDIA_S3_ENDPOINT and the network`;
    throw new ConfigurationError(`Media storage unusable: ${where}: ${reason}.`);
  }
}
