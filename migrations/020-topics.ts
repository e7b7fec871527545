import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * Topics (decision 032): the towns, people, institutions and running stories articles are
 * about. `key` is the name as search normalises it (one topic however it is spelt), `slug` its address;
 * `news_topics` links an article to its topics in their order; `topic_redirects` keeps the slugs a
 * rename or a merge left behind, each leading to the topic that has it now. Revisions keep their
 * topics' names (JSON list), so a restore brings them back.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("topics")
    // Opaque text, as article ids are: a copy between engines keeps them without a sequence to move.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("updated_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("news_topics")
    .addColumn("news_id", "text", (c) => c.notNull().references("news.id").onDelete("cascade"))
    .addColumn("topic_id", "text", (c) => c.notNull().references("topics.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("news_topics_pk", ["news_id", "topic_id"])
    .execute();
  await db.schema.createIndex("news_topics_topic_idx").on("news_topics").columns(["topic_id", "news_id"]).execute();
  await db.schema
    .createTable("topic_redirects")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("topic_id", "text", (c) => c.notNull().references("topics.id").onDelete("cascade"))
    .execute();
  await db.schema.alterTable("news_revisions").addColumn("topics", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("topics").execute();
  await db.schema.dropTable("topic_redirects").execute();
  await db.schema.dropIndex("news_topics_topic_idx").execute();
  await db.schema.dropTable("news_topics").execute();
  await db.schema.dropTable("topics").execute();
}
