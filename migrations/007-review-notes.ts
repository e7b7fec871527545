import type { Kysely } from "kysely";

/** The note an editor leaves when sending an article back to its author; kept until the next submit for review. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("review_note", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").dropColumn("review_note").execute();
}
