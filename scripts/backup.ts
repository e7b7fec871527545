/**
 * A consistent copy of the site, safe while the server runs: npm run backup -- <new folder>
 * Restore it with: npm run restore -- <folder>
 */
import { backupSite, BackupError } from "../app/server/data/backup.server";
import { bucketNotInBackup, dataLocations } from "../app/server/platform/config.server";

const USAGE = `Usage: npm run backup -- <folder>
  Copies the database (SQLite online backup), the media folder and the generated auth secret into
  <folder>, which must be new or empty. Safe while the server is running. Media in a bucket
  (MEDIA_S3_BUCKET) are not copied: back the bucket up with its provider's tools.`;

const [dir] = process.argv.slice(2);
if (!dir || dir.startsWith("-")) {
  console.error(USAGE);
  process.exit(1);
}
try {
  const site = dataLocations(process.env);
  const summary = await backupSite(site, dir);
  console.log(`Backed up ${summary.articles} articles and ${summary.mediaFiles} media files into ${dir}.`);
  if (site.mediaBucket) console.log(bucketNotInBackup(site.mediaBucket));
  if (site.authSecretFromEnv)
    console.log("AUTH_SECRET is set in the environment: keep it with the backup, or restored sessions end.");
  else if (!summary.authSecret) console.log("No generated auth secret was found; sessions will not survive a restore.");
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
