import type { Kysely } from "kysely";

/**
 * Push claims held by a lease (decision 037): `claimed_by` names the sender holding a delivery, which
 * renews `claimed_until` while it lives and gives the claim back when it stops. A request the push
 * service may have received but never answered is sent again a bounded number of times: counted on the
 * delivery (`unanswered`) and on its alert (`repeated`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("push_deliveries").addColumn("claimed_by", "text").execute();
  await db.schema
    .alterTable("push_deliveries")
    .addColumn("unanswered", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("push_alerts")
    .addColumn("repeated", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("push_alerts").dropColumn("repeated").execute();
  await db.schema.alterTable("push_deliveries").dropColumn("unanswered").execute();
  await db.schema.alterTable("push_deliveries").dropColumn("claimed_by").execute();
}
