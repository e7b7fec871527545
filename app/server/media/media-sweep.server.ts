import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { mediaNamesOf } from "./media.server";
import type { MediaStorage } from "./storage.server";

/** A stored file no article references is a crash leftover once it is this old (younger: maybe mid-publish). */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;
const STORED_FOLDERS = ["news-images", "news-videos"];

export type SweepReport = { staged: { files: number; bytes: number }; orphans: { names: string[]; bytes: number } };

async function sizeOfTree(dir: string): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) =>
        stat(path.join(e.parentPath, e.name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
  );
  return { files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

async function removeOrphans(
  storage: MediaStorage,
  referenced: Set<string>,
  olderThan: number,
): Promise<SweepReport["orphans"]> {
  const orphans: SweepReport["orphans"] = { names: [], bytes: 0 };
  for (const folder of STORED_FOLDERS) {
    const candidates = (await storage.list(folder)).filter(
      (file) => !referenced.has(file.name) && file.modifiedAt.getTime() < olderThan,
    );
    const left = new Set(await storage.delete(candidates.map((file) => file.name)));
    for (const file of candidates.filter((candidate) => !left.has(candidate.name))) {
      orphans.names.push(file.name);
      orphans.bytes += file.size;
    }
  }
  return orphans;
}

/**
 * Start-up cleaning, before the server listens: empties the local staging folder and removes stored
 * media that no article references and that is older than ORPHAN_AGE_MS. `referencedUrls` are the
 * media URLs of every article; an image's width variants belong to it.
 */
export async function sweepMedia(
  stagingDir: string,
  storage: MediaStorage,
  referencedUrls: readonly string[],
  now = Date.now(),
): Promise<SweepReport> {
  const staged = await sizeOfTree(stagingDir);
  await rm(stagingDir, { recursive: true, force: true });
  const referenced = new Set(referencedUrls.flatMap(mediaNamesOf));
  const orphans = await removeOrphans(storage, referenced, now - ORPHAN_AGE_MS);
  return { staged, orphans };
}
