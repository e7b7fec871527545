import type { Kysely } from "kysely";

/**
 * An optional byline text for wire and guest stories ("وكالات"), shown instead of the author's name;
 * revisions keep it as part of each version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("byline", "text").execute();
  await db.schema.alterTable("news_revisions").addColumn("byline", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("byline").execute();
  await db.schema.alterTable("news").dropColumn("byline").execute();
}
