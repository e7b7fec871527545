import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import type { Engine } from "../migrations/engine";
import { onPostgres, reusableEmptyDatabase } from "./postgres";

export type EmptyDatabase = {
  /** What DATABASE_URL names it by. */
  url: string;
  /** The SQLite file (on PostgreSQL, a path in a temporary directory that stays empty). */
  file: string;
  /** A fresh temporary directory, holding the SQLite file and anything else a test keeps beside it. */
  dir: string;
  /** Drops the database and removes the directory. */
  drop: () => Promise<void>;
};

/**
 * An empty database of the engine under test (or of `engine`), for servers and connections to open: a
 * SQLite file in a fresh temporary directory, or with TEST_DATABASE=postgres a fresh PostgreSQL database.
 */
export async function createEmptyDatabase(engine: Engine = onPostgres ? "postgres" : "sqlite"): Promise<EmptyDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-test-"));
  const file = path.join(dir, "test.db");
  const postgres = engine === "postgres" ? await reusableEmptyDatabase() : undefined;
  return {
    url: postgres?.url ?? file,
    file,
    dir,
    drop: async () => {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TempDatabase = Omit<EmptyDatabase, "drop"> & { db: DB; cleanup: () => Promise<void> };

/** An empty database of the engine under test or of `engine` (createEmptyDatabase), migrated to the latest schema and open. */
export async function createTempDatabase(engine?: Engine): Promise<TempDatabase> {
  const { drop, ...empty } = await createEmptyDatabase(engine);
  const db = openDatabase(empty.url);
  await migrateToLatest(db);
  return {
    ...empty,
    db,
    cleanup: async () => {
      await db.destroy();
      await drop();
    },
  };
}
