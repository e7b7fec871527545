import path from "node:path";
import type { Config, S3Settings } from "~/server/platform/config.server";
import { localStorage } from "./local-storage.server";
import type { MediaStorage } from "./storage.server";

/** The storage the configuration picks: the bucket when MEDIA_S3_BUCKET is set, else the media folder. */
export function mediaStorageFor(cfg: Pick<Config, "mediaDir" | "mediaS3">): MediaStorage {
  return cfg.mediaS3 ? bucketStorage(cfg.mediaS3) : localStorage(cfg.mediaDir);
}

/** The bucket's storage, with the AWS SDK loaded on its first use: a site on the media folder never loads it. */
function bucketStorage(settings: S3Settings): MediaStorage {
  let loaded: Promise<MediaStorage> | undefined;
  const storage = () => (loaded ??= import("./s3-storage.server").then(({ s3Storage }) => s3Storage(settings)));
  return {
    driver: "s3",
    verify: async () => (await storage()).verify(),
    put: async (name, source, contentType) => (await storage()).put(name, source, contentType),
    delete: async (names) => (await storage()).delete(names),
    read: async (name, range) => (await storage()).read(name, range),
    stat: async (name) => (await storage()).stat(name),
    list: async (folder) => (await storage()).list(folder),
  };
}

/** The folder inside MEDIA_DIR where uploads wait until they are checked: never part of the site's data. */
export const STAGING_DIR_NAME = ".staging";

/** Uploads wait here, on the local disk, until they are checked and stored, whichever the storage. */
export function stagingDirOf(mediaDir: string): string {
  return path.join(mediaDir, STAGING_DIR_NAME);
}
