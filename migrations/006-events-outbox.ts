import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * The transactional outbox: one row per change readers can see, written in the change's own
 * transaction and followed by every server process (app/server/outbox/). Ids only ever increase.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("events")
    .addColumn("id", engine === "postgres" ? "bigint" : "integer", (c) =>
      // AUTOINCREMENT: SQLite never hands out an id again, even one of a pruned row.
      engine === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("article_id", "text")
    // JSON text on both engines, so domain code reads the same value everywhere.
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_created_at_idx").on("events").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("events").execute();
}
