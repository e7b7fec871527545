import type { Kysely } from "kysely";

/**
 * Author pages: a short bio and a few links (a JSON list of http/https URLs) beside the
 * photo better-auth already gives `user` (`image`, a stored media URL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").addColumn("bio", "text").execute();
  await db.schema.alterTable("user").addColumn("links", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("links").execute();
  await db.schema.alterTable("user").dropColumn("bio").execute();
}
