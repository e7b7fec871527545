import type { Kysely } from "kysely";
import type { Engine } from "./engine";

/**
 * Opened notifications (decision 037): each delivery's payload carries a token, and an open is counted
 * once per token. A row per opened notification: its alert and its delivery's number.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const serial = engine === "postgres" ? "bigint" : "integer";
  await db.schema
    .createTable("push_opens")
    .addColumn("alert_id", serial, (c) => c.notNull())
    .addColumn("delivery_id", serial, (c) => c.notNull())
    .addPrimaryKeyConstraint("push_opens_pk", ["alert_id", "delivery_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_opens").execute();
}
