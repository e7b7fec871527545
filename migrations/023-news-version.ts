import type { Kysely } from "kysely";

/**
 * Edit conflicts: `news.version` counts the writes of a story; a save names the version it
 * was based on and is refused when the row has moved on (news/articles-write.server.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("news")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").dropColumn("version").execute();
}
