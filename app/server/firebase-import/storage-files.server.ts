import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { storeSizedImage, storeVideoFile, type StoredImage } from "~/server/media/media.server";
import type { MediaStorage } from "~/server/media/storage.server";

/** Where a Firebase Storage URL points: its bucket and the object's path (`news-images/…`). */
export type StorageObject = { bucket: string; objectPath: string };

/**
 * The object behind a Firebase Storage URL, in the forms the original stored: the download URL
 * (firebasestorage.googleapis.com/v0/b/{bucket}/o/{path}?alt=media&token=…), the public URL
 * (storage.googleapis.com/{bucket}/{path}) and gs://{bucket}/{path}. Null for any other URL.
 */
export function storageObjectOf(url: string): StorageObject | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  let match: RegExpExecArray | null = null;
  if (parsed.protocol === "gs:")
    return parsed.pathname.length > 1
      ? { bucket: parsed.host, objectPath: decodeURIComponent(parsed.pathname.slice(1)) }
      : null;
  if (parsed.host === "firebasestorage.googleapis.com") match = /^\/v0\/b\/([^/]+)\/o\/(.+)$/.exec(parsed.pathname);
  else if (parsed.host === "storage.googleapis.com") match = /^\/([^/]+)\/(.+)$/.exec(parsed.pathname);
  if (!match) return null;
  try {
    return { bucket: match[1]!, objectPath: decodeURIComponent(match[2]!) };
  } catch {
    return null;
  }
}

/**
 * The object's file in a local copy of the bucket: `gsutil -m cp -r gs://{bucket} {folder}` puts it in
 * {folder}/{bucket}/{path}; a copy of the bucket's contents, in {folder}/{path}. Never outside the folder.
 */
export function findStorageFile(folder: string, object: StorageObject): string | null {
  const root = path.resolve(folder);
  for (const candidate of [path.join(root, object.bucket, object.objectPath), path.join(root, object.objectPath)]) {
    const resolved = path.resolve(candidate);
    if (!resolved.startsWith(root + path.sep)) continue;
    if (existsSync(resolved) && statSync(resolved).isFile()) return resolved;
  }
  return null;
}

const VIDEO_EXTENSIONS = /\.(mp4|webm|mov|m4v)$/i;

export function isVideoObject(object: StorageObject): boolean {
  return object.objectPath.startsWith("news-videos/") || VIDEO_EXTENSIONS.test(object.objectPath);
}

/** Stores the file as an upload would be stored (an image with its WebP width variants and size, or a video). */
export async function copyStorageFile(
  storage: MediaStorage,
  file: string,
  object: StorageObject,
): Promise<StoredImage | { url: string; video: true }> {
  const filename = path.basename(object.objectPath);
  return isVideoObject(object)
    ? { url: await storeVideoFile(storage, file, filename), video: true }
    : storeSizedImage(storage, await readFile(file), filename);
}
