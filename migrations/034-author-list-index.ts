import type { Kysely } from "kysely";

/**
 * An author's page lists the published stories credited to one account, newest written first: the index
 * leads with the status and the account, then that order, so the page reads its own rows and no others.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("news_status_author_created_idx")
    .on("news")
    .columns(["status", "author_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("news_status_author_created_idx").execute();
}
