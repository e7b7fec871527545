import type { DB } from "~/server/db/db.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { MalformedExportError } from "./firestore-export.server";
import { importAccounts } from "./import-accounts.server";
import { importArticles } from "./import-articles.server";
import { newReport, type ImportReport } from "./import-report.server";
import type { ImportOptions, ImportSources, Run } from "./import-run.server";
import { importSiteVisits } from "./import-visits.server";

const KNOWN_COLLECTIONS = ["all-news", "news", "short-links", "users", "visits"];

/**
 * What would stop the import before anything is written: an export with none of the original's
 * collections, password hashes without the project's hash parameters.
 */
export function checkSources(sources: ImportSources): void {
  if (!KNOWN_COLLECTIONS.some((name) => sources.firestore.collections.has(name))) {
    throw new MalformedExportError(
      `The Firestore export holds none of the collections ${KNOWN_COLLECTIONS.join(", ")}.`,
    );
  }
  const hashed = sources.authUsers?.some(
    (raw) => typeof (raw as { passwordHash?: unknown })?.passwordHash === "string",
  );
  if (hashed && !sources.hashConfig) {
    throw new MalformedExportError(
      "The Auth export holds password hashes: give the project's hash parameters with --hash-config.",
    );
  }
}

/**
 * Imports a Firebase project: articles with their ids, legacy `news` items that are not
 * already articles, short links with their short ids, media copied from the local bucket, site visits,
 * accounts with their passwords. Safe to repeat: what an earlier run imported unchanged is left alone.
 * Each batch of documents is one transaction; a dry run reads and counts but writes nothing.
 */
export async function importFirebase(
  db: DB,
  storage: MediaStorage,
  sources: ImportSources,
  options: ImportOptions,
): Promise<ImportReport> {
  checkSources(sources);
  const run: Run = { db, storage, sources, options, report: newReport(options.dryRun, sources.firestore.layout) };
  await importArticles(run);
  await importSiteVisits(run);
  if (sources.authUsers) await importAccounts(run, sources.authUsers);
  return run.report;
}
