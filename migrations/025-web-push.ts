import type { Kysely } from "kysely";
import { flagOff, flagType, momentType, type Engine } from "./engine";

/**
 * Web Push (decision 037): the site's one VAPID key pair, readers' subscriptions (endpoint,
 * keys, the categories beyond breaking, when), one alert per story sent with its counts, and the
 * deliveries still to make (a row per subscription until its outcome is counted), so a send survives
 * a restart. `news.send_alert`: an editor asked for an alert when the story is published.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const serial = engine === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("push_keys")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("private_key", "text", (c) => c.notNull())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("endpoint", "text", (c) => c.primaryKey())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    // JSON array of categories beyond breaking.
    .addColumn("categories", "text", (c) => c.notNull())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("push_alerts")
    .addColumn("id", serial, (c) =>
      engine === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("article_id", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    // The payload JSON and topic, set when the deliveries are made (null until then).
    .addColumn("payload", "text")
    .addColumn("category", "text")
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("delivered", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("removed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("opened", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("push_alerts_created_at_idx").on("push_alerts").column("created_at").execute();
  await db.schema
    .createTable("push_deliveries")
    .addColumn("id", serial, (c) =>
      engine === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("alert_id", serial, (c) => c.notNull())
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("due_at", momentType(engine, "text"), (c) => c.notNull())
    // A process's claim on the delivery until this moment; after it, another may take it.
    .addColumn("claimed_until", momentType(engine, "text"))
    .execute();
  await db.schema.createIndex("push_deliveries_due_idx").on("push_deliveries").columns(["due_at", "id"]).execute();
  await db.schema
    .alterTable("news")
    .addColumn("send_alert", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").dropColumn("send_alert").execute();
  await db.schema.dropTable("push_deliveries").execute();
  await db.schema.dropTable("push_alerts").execute();
  await db.schema.dropTable("push_subscriptions").execute();
  await db.schema.dropTable("push_keys").execute();
}
