import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * A topic's description, written on its admin page and shown on its page; and the claims on the
 * mails that tell editors a story waits for review: one row per outbox event of a submission, taken
 * by the first process to insert it, so the mail goes out once however many processes hear the event.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable("topics").addColumn("description", "text").execute();
  await db.schema
    .createTable("review_mails")
    .addColumn("event_id", "bigint", (c) => c.primaryKey())
    .addColumn("news_id", "text", (c) => c.notNull())
    .addColumn("claimed_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("sent_at", momentType(engine, "text"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("review_mails").execute();
  await db.schema.alterTable("topics").dropColumn("description").execute();
}
