/**
 * Moves a SQLite site into an empty PostgreSQL database: npm run db:copy -- --to postgres://…
 * Copies a consistent snapshot of the site's database (DATABASE_URL, default ./data/akhbar.db), so it
 * is safe while the server runs; what is written after the snapshot stays behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CopyError, copySite } from "../app/server/data/copy.server";
import { openDatabase } from "../app/server/db/db.server";
import { isPostgresUrl } from "../app/server/platform/database-url.server";
import { BackupError, snapshotDatabase } from "../app/server/data/backup.server";
import { AUTH_SECRET_FILE, dataLocations } from "../app/server/platform/config.server";

const USAGE = `Usage: npm run db:copy -- --to postgres://user:password@host:5432/database
  Copies the site's SQLite database (DATABASE_URL, default ./data/akhbar.db) into an empty PostgreSQL
  database: articles, short links, visit counts, accounts and sessions; then rebuilds the search index
  there and compares row counts. Media files stay where they are.`;

/** The URL without its password, to print. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "****";
  return parsed.toString();
}

const { values } = parseArgs({ options: { to: { type: "string" } }, strict: true });
const to = values.to;
if (!to || !isPostgresUrl(to)) {
  console.error(USAGE);
  process.exit(1);
}
const site = dataLocations(process.env);
if (isPostgresUrl(site.databaseUrl)) {
  console.error("DATABASE_URL already names a PostgreSQL database: db:copy moves a SQLite site.");
  process.exit(1);
}

const snapshotDir = mkdtempSync(path.join(tmpdir(), "akhbar-db-copy-"));
const snapshotFile = path.join(snapshotDir, "akhbar.db");
try {
  const takenAt = new Date();
  await snapshotDatabase(site.databaseUrl, snapshotFile);
  const source = openDatabase(snapshotFile);
  const target = openDatabase(to);
  try {
    const counts = await copySite(source, target);
    console.log(`Copied ${site.databaseUrl} (as of ${takenAt.toISOString()}) into ${withoutPassword(to)}:\n`);
    console.log("| table | rows |\n|---|---:|");
    for (const count of counts) console.log(`| ${count.table} | ${count.target} |`);
    console.log(`
Row counts match, and the search index is rebuilt. Next:
  1. Stop the server (writes made after the copy began are not in the copy; to keep them, stop it and copy again into a new database).
  2. Start it with:
       DATABASE_URL=${withoutPassword(to)}   (with its real password)
       ${site.authSecretFromEnv ? "AUTH_SECRET: the same value as now" : `AUTH_SECRET="$(cat ${path.resolve(AUTH_SECRET_FILE)})"`}   (so signed-in sessions stay valid)
       MEDIA_DIR=${site.mediaDir}   (media stays where it is)`);
  } finally {
    await source.destroy();
    await target.destroy();
  }
} catch (error) {
  if (!(error instanceof CopyError || error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(snapshotDir, { recursive: true, force: true });
}
