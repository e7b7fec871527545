import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import SQLite from "better-sqlite3";
import { AUTH_SECRET_FILE, type DataLocations } from "~/server/platform/config.server";
import { databaseFile, isPostgresUrl } from "~/server/platform/database-url.server";
import { STAGING_DIR_NAME } from "~/server/media/media-storage.server";

/** What a backup folder holds. */
const BACKUP_FILES = { database: "akhbar.db", media: "media", authSecret: "auth-secret" } as const;

export class BackupError extends Error {}

/** Backup and restore copy a SQLite file; PostgreSQL has its own tools. */
function refusePostgres(site: DataLocations, what: "back up" | "restore"): void {
  if (!isPostgresUrl(site.databaseUrl)) return;
  const tool = what === "back up" ? "pg_dump -Fc -f akhbar.dump \"$DATABASE_URL\"" : "pg_restore --clean -d \"$DATABASE_URL\" akhbar.dump";
  throw new BackupError(
    `npm run ${what === "back up" ? "backup" : "restore"} copies a SQLite file, and DATABASE_URL names PostgreSQL. Use PostgreSQL's own tools for the database (${tool}) and copy MEDIA_DIR beside it.`,
  );
}

function isEmptyFolder(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function integrityOf(file: string): string {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return String(database.pragma("integrity_check", { simple: true }));
  } finally {
    database.close();
  }
}

function articleCount(file: string): number {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (database.prepare("SELECT count(*) AS n FROM news").get() as { n: number }).n;
  } finally {
    database.close();
  }
}

function copyMedia(from: string, to: string): number {
  if (!existsSync(from)) return 0;
  let files = 0;
  cpSync(from, to, {
    recursive: true,
    filter: (source) => {
      if (path.relative(from, source).split(path.sep)[0] === STAGING_DIR_NAME) return false;
      if (statSync(source).isFile()) files++;
      return true;
    },
  });
  return files;
}

/**
 * Writes a consistent copy of the SQLite database at `databaseUrl` into the file `target` through
 * SQLite's online backup (WAL included): safe while the server runs.
 */
export async function snapshotDatabase(databaseUrl: string, target: string): Promise<void> {
  const source = databaseFile(databaseUrl);
  if (!existsSync(source)) throw new BackupError(`No database at ${source}: check DATABASE_URL.`);
  const database = new SQLite(source, { fileMustExist: true });
  try {
    await database.backup(target);
  } finally {
    database.close();
  }
  const integrity = integrityOf(target);
  if (integrity !== "ok") throw new BackupError(`The copied database fails its integrity check: ${integrity}`);
}

export type BackupSummary = { articles: number; mediaFiles: number; authSecret: boolean };

/**
 * Copies a site, running or not, into the empty folder `dir`: the database through SQLite's online
 * backup (a consistent snapshot, WAL included), then the media (uploads still staging left out; the
 * database first, so every article in the snapshot finds its files) and the generated auth secret.
 */
export async function backupSite(site: DataLocations, dir: string): Promise<BackupSummary> {
  refusePostgres(site, "back up");
  if (!isEmptyFolder(dir)) throw new BackupError(`${dir} is not empty: back up into a new folder.`);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, BACKUP_FILES.database);
  await snapshotDatabase(site.databaseUrl, target);
  const mediaFiles = copyMedia(site.mediaDir, path.join(dir, BACKUP_FILES.media));
  const authSecret = !site.authSecretFromEnv && existsSync(AUTH_SECRET_FILE);
  if (authSecret) {
    copyFileSync(AUTH_SECRET_FILE, path.join(dir, BACKUP_FILES.authSecret));
    chmodSync(path.join(dir, BACKUP_FILES.authSecret), 0o600);
  }
  return { articles: articleCount(target), mediaFiles, authSecret };
}

/** True when something accepts connections at host:port (a server still running on the site). */
function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Puts a backup made by backupSite in place of the configured site. The server must be stopped;
 * a site that already has data is replaced only when `force` is given.
 */
export async function restoreSite(
  site: DataLocations,
  dir: string,
  options: { force: boolean },
): Promise<BackupSummary> {
  refusePostgres(site, "restore");
  const backup = path.join(dir, BACKUP_FILES.database);
  if (!existsSync(backup)) throw new BackupError(`${dir} holds no ${BACKUP_FILES.database}: not a backup folder.`);
  const integrity = integrityOf(backup);
  if (integrity !== "ok") throw new BackupError(`The backup's database fails its integrity check: ${integrity}`);
  const { host, port } = site.server;
  if (await isListening(host, port)) throw new BackupError(`A server is running on ${host}:${port}. Stop it before restoring.`);

  const target = databaseFile(site.databaseUrl);
  const hasData = (existsSync(target) && statSync(target).size > 0) || !isEmptyFolder(site.mediaDir);
  if (hasData && !options.force) {
    throw new BackupError(`The site at ${target} and ${site.mediaDir} already has data. Add --force to replace it with the backup.`);
  }
  // A WAL or shared-memory file left beside the old database would be replayed into the restored one.
  for (const file of [target, `${target}-wal`, `${target}-shm`]) rmSync(file, { force: true });
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const database = new SQLite(backup, { readonly: true });
  try {
    await database.backup(target);
  } finally {
    database.close();
  }
  rmSync(site.mediaDir, { recursive: true, force: true });
  const mediaFiles = copyMedia(path.join(dir, BACKUP_FILES.media), site.mediaDir);
  mkdirSync(site.mediaDir, { recursive: true });
  const secret = path.join(dir, BACKUP_FILES.authSecret);
  const authSecret = existsSync(secret) && !site.authSecretFromEnv;
  if (authSecret) {
    mkdirSync(path.dirname(AUTH_SECRET_FILE), { recursive: true });
    copyFileSync(secret, AUTH_SECRET_FILE);
    chmodSync(AUTH_SECRET_FILE, 0o600);
  }
  return { articles: articleCount(target), mediaFiles, authSecret };
}
