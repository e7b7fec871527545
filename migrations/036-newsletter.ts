import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { flagOff, flagType, momentType, type Engine } from "./engine";

/**
 * The newsletter (decision 046). `newsletter_subscribers`: an address (lowercase, unique), its choices
 * (the morning brief, breaking news, categories as a JSON array), its status (pending, confirmed,
 * unsubscribed, bounced), whether an import brought it, and when. `newsletter_sendings`: one mail
 * (a day's brief, unique by its Beirut day; a breaking story's, unique by the story) with its stories,
 * opening, the rendered mail once prepared, and its counts. `newsletter_deliveries`: a row per sending
 * and subscriber while it waits, claimed under a lease as push deliveries are, deleted with its outcome.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const serial = engine === "postgres" ? "bigint" : "integer";
  const moment = momentType(engine, "text");
  const identity = (c: ColumnDefinitionBuilder) =>
    engine === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable("newsletter_subscribers")
    .addColumn("id", serial, identity)
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("brief", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("breaking", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("categories", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("imported", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("created_at", moment, (c) => c.notNull())
    // The last sign-up asked for: its confirmation link holds seven days from it.
    .addColumn("requested_at", moment, (c) => c.notNull())
    .addColumn("confirmed_at", moment)
    .addColumn("changed_at", moment, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("newsletter_subscribers_status_idx")
    .on("newsletter_subscribers")
    .columns(["status", "requested_at"])
    .execute();
  await db.schema
    .createTable("newsletter_sendings")
    .addColumn("id", serial, identity)
    .addColumn("kind", "text", (c) => c.notNull())
    // A brief's Beirut day (YYYY-MM-DD); a breaking mail's story.
    .addColumn("day", "text", (c) => c.unique())
    .addColumn("article_id", "text", (c) => c.unique())
    .addColumn("story_ids", "text", (c) => c.notNull())
    .addColumn("opening", "text", (c) => c.notNull().defaultTo(""))
    // draft (editable, waits for its hour), queued (to prepare), sending, sent.
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("scheduled_at", moment, (c) => c.notNull())
    .addColumn("created_at", moment, (c) => c.notNull())
    // Set once an editor changed the brief: its stories are no longer chosen again when it goes.
    .addColumn("edited_at", moment)
    .addColumn("prepared_at", moment)
    .addColumn("subject", "text")
    .addColumn("html", "text")
    .addColumn("plain", "text")
    .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refused", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("bounced", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("newsletter_sendings_status_idx")
    .on("newsletter_sendings")
    .columns(["status", "scheduled_at"])
    .execute();
  await db.schema
    .createTable("newsletter_deliveries")
    .addColumn("id", serial, identity)
    .addColumn("sending_id", serial, (c) => c.notNull())
    .addColumn("subscriber_id", serial, (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("due_at", moment, (c) => c.notNull())
    .addColumn("claimed_until", moment)
    .addColumn("claimed_by", "text")
    .addUniqueConstraint("newsletter_deliveries_once", ["sending_id", "subscriber_id"])
    .execute();
  await db.schema
    .createIndex("newsletter_deliveries_due_idx")
    .on("newsletter_deliveries")
    .columns(["due_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("newsletter_deliveries").execute();
  await db.schema.dropTable("newsletter_sendings").execute();
  await db.schema.dropTable("newsletter_subscribers").execute();
}
