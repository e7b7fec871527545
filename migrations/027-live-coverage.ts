import type { Kysely } from "kysely";
import { flagOff, flagType, momentType, type Engine } from "./engine";

/**
 * Live coverage (decision 040): a story opened as live coverage (one row while live, kept
 * with its summary once closed) and its updates, each a short structured document with its author,
 * pinned or not, an alert or not; and the Web Push alert of an update sent as one.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("live_coverage")
    .addColumn("news_id", "text", (c) => c.primaryKey())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("summary", "text")
    .addColumn("started_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("ended_at", momentType(engine, "text"))
    .execute();
  await db.schema
    .createTable("live_updates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("news_id", "text", (c) => c.notNull())
    // The update's structured document (lib/rich-text/document.ts) as JSON, and its plain text.
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("author_name", "text", (c) => c.notNull())
    .addColumn("pinned", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("alert", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("updated_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("live_updates_news_idx").on("live_updates").columns(["news_id", "created_at"]).execute();
  // An update sent as a Web Push alert: its alert's row names it (its key, article_id, is the update's address).
  await db.schema.alterTable("push_alerts").addColumn("live_update_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("push_alerts").dropColumn("live_update_id").execute();
  await db.schema.dropTable("live_updates").execute();
  await db.schema.dropTable("live_coverage").execute();
}
