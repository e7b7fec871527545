import { sql, type Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * Publish times (decision 016): `publish_at`, when a scheduled article goes out, and lists ordered by when an
 * article was published rather than written. Articles published before this kept `published_at` empty
 * when they were created published: their creation was their publication.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable("news").addColumn("publish_at", momentType(engine, "text")).execute();
  await sql`update news set published_at = created_at where status = 'published' and published_at is null`.execute(db);
  // The scheduler's claim: scheduled articles whose time has come.
  await db.schema.createIndex("news_status_publish_at_idx").on("news").columns(["status", "publish_at"]).execute();
  // Twins of 001's (status, created_at) indexes for the lists' newest-published-first order.
  await db.schema.createIndex("news_status_published_idx").on("news").columns(["status", "published_at"]).execute();
  await db.schema
    .createIndex("news_status_category_published_idx")
    .on("news")
    .columns(["status", "category", "published_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("news_status_category_published_idx").execute();
  await db.schema.dropIndex("news_status_published_idx").execute();
  await db.schema.dropIndex("news_status_publish_at_idx").execute();
  await db.schema.alterTable("news").dropColumn("publish_at").execute();
}
