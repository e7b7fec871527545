import path from "node:path";
import type { Config } from "~/server/platform/config.server";
import { localStorage } from "./local-storage.server";
import { s3Storage } from "./s3-storage.server";
import type { MediaStorage } from "./storage.server";

/** The storage the configuration picks: the bucket when MEDIA_S3_BUCKET is set, else the media folder. */
export function mediaStorageFor(cfg: Pick<Config, "mediaDir" | "mediaS3">): MediaStorage {
  return cfg.mediaS3 ? s3Storage(cfg.mediaS3) : localStorage(cfg.mediaDir);
}

/** The folder inside MEDIA_DIR where uploads wait until they are checked: never part of the site's data. */
export const STAGING_DIR_NAME = ".staging";

/** Uploads wait here, on the local disk, until they are checked and stored, whichever the storage. */
export function stagingDirOf(mediaDir: string): string {
  return path.join(mediaDir, STAGING_DIR_NAME);
}
