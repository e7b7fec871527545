import { Migrator } from "kysely";
import { migrationsFor } from "../../../migrations/index";
import { rebuildSearchIndex } from "~/server/search/search-index.server";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";

/**
 * Applies the pending migrations. Migrations never import application code, so derived data follows
 * here: after any migration the search index is rebuilt with the current normalizer.
 */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrations = migrationsFor(dialectName(db));
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  const applied = (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  if (applied.length > 0) await db.transaction().execute((trx) => rebuildSearchIndex(trx));
  return applied;
}

/** The migrations not applied yet (a dry run that may not write reads a schema that is up to date). */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const migrations = migrationsFor(dialectName(db));
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
