import type { FirebaseArticle } from "./firebase-records.server";
import { warn } from "./import-report.server";
import type { Run } from "./import-run.server";
import { readImported } from "./import-state.server";
import { recordLibraryImages } from "~/server/news/media-library.server";
import { copyStorageFile, findStorageFile, storageObjectOf } from "./storage-files.server";

/** Every media URL an article names: its images, its picture, its video. */
export function mediaUrlsOf(record: FirebaseArticle): string[] {
  return [...record.images, ...(record.imageUrl ? [record.imageUrl] : []), ...(record.video ? [record.video] : [])];
}

/** The Storage URLs of the export whose file the local bucket does not hold. */
export function missingMedia(run: Run, urls: string[]): string[] {
  return urls.filter((url) => {
    const object = storageObjectOf(url);
    return object !== null && (!run.sources.storageDir || !findStorageFile(run.sources.storageDir, object));
  });
}

export function warnMissingFile(run: Run, articleId: string, url: string): void {
  const where = run.sources.storageDir
    ? `no file ${storageObjectOf(url)?.objectPath} in the Storage copy`
    : "no --storage folder given";
  warn(run.report, "media", articleId, `${url}: ${where}; the URL is kept`);
}

/** The media URLs an earlier run copied, each with the URL it was stored under. */
export async function storedMedia(run: Run, records: FirebaseArticle[]): Promise<Map<string, string>> {
  const stored = await readImported(run.db, "media", [...new Set(records.flatMap(mediaUrlsOf))]);
  return new Map([...stored].map(([url, { target }]) => [url, target!]));
}

/** Copies the article's Storage files not copied before into `copied`; a missing file keeps its URL and is reported. */
export async function copyMedia(
  run: Run,
  record: FirebaseArticle,
  mediaOf: Map<string, string>,
  copied: Map<string, string>,
): Promise<void> {
  for (const url of mediaUrlsOf(record)) {
    const object = storageObjectOf(url);
    if (!object) continue;
    if (mediaOf.has(url) || copied.has(url)) {
      if (mediaOf.has(url)) run.report.counts.media.unchanged++;
      continue;
    }
    const file = run.sources.storageDir ? findStorageFile(run.sources.storageDir, object) : null;
    if (!file) {
      warnMissingFile(run, record.id, url);
      continue;
    }
    if (run.options.dryRun) {
      copied.set(url, url);
      run.report.counts.media.created++;
      continue;
    }
    try {
      const stored = await copyStorageFile(run.storage, file, object);
      if (!("video" in stored)) await recordLibraryImages(run.db, [stored], null, record.createdAt);
      copied.set(url, stored.url);
      run.report.counts.media.created++;
    } catch (error) {
      warn(run.report, "media", record.id, `${url}: ${(error as Error).message}; the URL is kept`);
    }
  }
}
