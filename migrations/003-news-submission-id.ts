import type { Kysely } from "kysely";

/** Remembers which form submission created an article, so posting the same form twice publishes once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("submission_id", "text").execute();
  await db.schema.createIndex("news_submission_id_idx").on("news").column("submission_id").unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("news_submission_id_idx").execute();
  await db.schema.alterTable("news").dropColumn("submission_id").execute();
}
