import type { Kysely } from "kysely";

/** An optional byline text for wire and guest stories ("وكالات"), shown instead of the author's name. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("byline", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").dropColumn("byline").execute();
}
