import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTempDatabase } from "../../harness/temp-db";
import type { DB } from "~/server/db/db.server";
import { localStorage } from "~/server/media/local-storage.server";
import type { Newsroom } from "~/server/news/newsroom.server";
import { systemClock } from "~/server/platform/clock.server";

export type TempNewsroom = { db: DB; newsroom: Newsroom; mediaDir: string; cleanup: () => Promise<void> };

/** A newsroom for domain tests: a fresh database of the engine under test and a media folder of its own, both removed by `cleanup`. */
export async function createTempNewsroom(): Promise<TempNewsroom> {
  const { db, cleanup } = await createTempDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), "akhbar-newsroom-"));
  return {
    db,
    mediaDir,
    newsroom: { db, storage: localStorage(mediaDir), stagingDir: path.join(mediaDir, ".staging"), clock: systemClock },
    cleanup: async () => {
      await cleanup();
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}
