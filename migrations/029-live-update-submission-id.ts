import type { Kysely } from "kysely";

/** Remembers which desk form created a live update, so posting the same form twice posts once (as 003 for articles). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("live_updates").addColumn("submission_id", "text").execute();
  await db.schema
    .createIndex("live_updates_submission_id_idx")
    .on("live_updates")
    .column("submission_id")
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("live_updates_submission_id_idx").execute();
  await db.schema.alterTable("live_updates").dropColumn("submission_id").execute();
}
