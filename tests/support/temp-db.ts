import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import type { Engine } from "../../migrations/engine";
import { createPostgresDatabase, onPostgres } from "./postgres";

export type TempDatabase = {
  db: DB;
  /** What DATABASE_URL would name it by. */
  url: string;
  /** A fresh temporary directory, for the SQLite file and anything else a test keeps beside it. */
  dir: string;
  /** The SQLite file (on PostgreSQL, a path that does not exist). */
  file: string;
  cleanup: () => Promise<void>;
};

/**
 * A real database migrated to the latest schema: a SQLite file in a fresh temporary directory, or
 * with TEST_DATABASE=postgres (or `engine` "postgres") a fresh PostgreSQL database, dropped by `cleanup`.
 */
export async function createTempDatabase(engine: Engine = onPostgres ? "postgres" : "sqlite"): Promise<TempDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-test-"));
  const file = path.join(dir, "test.db");
  const postgres = engine === "postgres" ? await createPostgresDatabase() : undefined;
  const url = postgres?.url ?? file;
  const db = openDatabase(url);
  await migrateToLatest(db);
  return {
    db,
    url,
    dir,
    file,
    cleanup: async () => {
      await db.destroy();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
