/**
 * Puts a backup made by `npm run backup` in place of the configured site (DATABASE_URL, MEDIA_DIR):
 * npm run restore -- <folder> [--force]. The server must be stopped.
 */
import { BackupError, restoreSite } from "../app/server/data/backup.server";
import { bucketNotInBackup, dataLocations } from "../app/server/platform/config.server";

const USAGE = `Usage: npm run restore -- <folder> [--force]
  Restores the backup in <folder> into DATABASE_URL and MEDIA_DIR. Stop the server first.
  --force  replace a site that already has data`;

const args = process.argv.slice(2);
const force = args.includes("--force");
const [dir, ...rest] = args.filter((a) => a !== "--force");
if (!dir || dir.startsWith("-") || rest.length > 0) {
  console.error(USAGE);
  process.exit(1);
}
try {
  const site = dataLocations(process.env);
  const summary = await restoreSite(site, dir, { force });
  console.log(`Restored ${summary.articles} articles and ${summary.mediaFiles} media files from ${dir}.`);
  if (site.mediaBucket) console.log(bucketNotInBackup(site.mediaBucket));
  if (summary.authSecret) console.log("The auth secret was restored: existing sessions stay valid.");
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
