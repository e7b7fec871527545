import type { Kysely } from "kysely";
import type { Engine } from "./engine";

/**
 * Sign-in failures and sign-up attempts, one row each, under a keyed hash of the address (and account):
 * no raw address is stored. Visit marks: one row per client, article (or the site) and day, same hashing.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("auth_attempts")
    .addColumn("id", "integer", (c) =>
      engine === "postgres" ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("key", "text", (c) => c.notNull())
    // Milliseconds since the epoch: past PostgreSQL's 32-bit integer.
    .addColumn("at", engine === "postgres" ? "bigint" : "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_attempts_key_at_idx").on("auth_attempts").columns(["key", "at"]).execute();
  await db.schema.createIndex("auth_attempts_at_idx").on("auth_attempts").column("at").execute();

  await db.schema
    .createTable("visit_marks")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("day", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("visit_marks_day_idx").on("visit_marks").column("day").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("visit_marks").execute();
  await db.schema.dropTable("auth_attempts").execute();
}
