import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * Undo: every save keeps the article's previous version in `news_revisions`; deleting moves
 * an article to the trash (status `trashed`) and remembers the status it had and when it was deleted.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("news_revisions")
    .addColumn("id", engine === "postgres" ? "bigint" : "integer", (c) =>
      engine === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("news_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("images", "text", (c) => c.notNull())
    .addColumn("image_url", "text")
    .addColumn("video", "text")
    .addColumn("author_id", "text")
    .addColumn("saved_by", "text")
    // "save" or "autosave": the kind of save that replaced this version.
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("save"))
    .addColumn("saved_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("news_revisions_news_id_idx").on("news_revisions").columns(["news_id", "id"]).execute();
  await db.schema.alterTable("news").addColumn("trashed_from", "text").execute();
  await db.schema.alterTable("news").addColumn("deleted_at", momentType(engine, "text")).execute();
  await db.schema.createIndex("news_deleted_at_idx").on("news").column("deleted_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("news_deleted_at_idx").execute();
  await db.schema.alterTable("news").dropColumn("deleted_at").execute();
  await db.schema.alterTable("news").dropColumn("trashed_from").execute();
  await db.schema.dropTable("news_revisions").execute();
}
