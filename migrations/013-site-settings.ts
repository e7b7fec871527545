import type { Kysely } from "kysely";

/**
 * The site's own settings (name, logo, social links, contact, information pages): one row, its
 * values as JSON text on both engines (app/lib/site-settings.ts reads them through its schema).
 * No row: the site was never set up, and shows neutral values.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_settings").execute();
}
