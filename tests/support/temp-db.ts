import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";

/** A real SQLite database in a fresh temporary directory, migrated to the latest schema. */
export async function createTempDatabase(): Promise<{ db: DB; dir: string; file: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-test-"));
  const file = path.join(dir, "test.db");
  const db = openDatabase(file);
  await migrateToLatest(db);
  return {
    db,
    dir,
    file,
    cleanup: async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
