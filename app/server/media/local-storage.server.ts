import { createReadStream } from "node:fs";
import { link, mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  contentTypeOf,
  isMediaName,
  resolveRange,
  type MediaRead,
  type MediaSource,
  type MediaStorage,
  type RangeRequest,
  type StoredFile,
} from "./storage.server";

/**
 * The media folder (MEDIA_DIR) as storage: one file per stored name. Files are created exclusively
 * (`wx`, or a `link` for a staged file), so no upload ever replaces another's file.
 */
export function localStorage(dir: string): MediaStorage {
  const root = path.resolve(dir);
  const fileOf = (name: string): string => {
    if (!isMediaName(name)) throw new Error(`not a media name: ${name}`);
    return path.join(root, name);
  };
  const statOf = async (name: string): Promise<StoredFile | null> => {
    const info = await stat(fileOf(name)).catch(() => null);
    return info?.isFile() ? { name, size: info.size, modifiedAt: info.mtime } : null;
  };

  return {
    driver: "local",

    // The folder is made by the first upload: a site that publishes only text never needs it.
    verify: () => Promise.resolve(),

    async put(name: string, source: MediaSource, _contentType: string): Promise<void> {
      const file = fileOf(name);
      await mkdir(path.dirname(file), { recursive: true });
      if (!Buffer.isBuffer(source)) return link(source.path, file); // a link, unlike a rename, never replaces a file
      try {
        await writeFile(file, source, { flag: "wx" });
      } catch (error) {
        // A half-written file is ours to remove; an existing one (EEXIST) is someone else's.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") await rm(file, { force: true }).catch(() => undefined);
        throw error;
      }
    },

    async delete(names: readonly string[]): Promise<string[]> {
      const results = await Promise.allSettled(names.map((name) => rm(fileOf(name), { force: true })));
      return names.filter((_, i) => results[i]?.status === "rejected");
    },

    async read(name: string, range?: RangeRequest): Promise<MediaRead> {
      const found = isMediaName(name) ? await statOf(name) : null;
      if (!found) return { status: "missing" };
      const bytes = range ? resolveRange(range, found.size) : null;
      if (range && !bytes) return { status: "unsatisfiable", size: found.size };
      return {
        status: "found",
        body: createReadStream(fileOf(name), bytes ?? {}),
        size: found.size,
        range: bytes,
        contentType: contentTypeOf(name),
        etag: undefined,
        modifiedAt: found.modifiedAt,
      };
    },

    stat: (name: string) => (isMediaName(name) ? statOf(name) : Promise.resolve(null)),

    async list(folder: string): Promise<StoredFile[]> {
      const names = await readdir(fileOf(folder)).catch(() => []);
      const files = await Promise.all(names.map((name) => statOf(`${folder}/${name}`).catch(() => null)));
      return files.filter((file): file is StoredFile => file !== null);
    },
  };
}
