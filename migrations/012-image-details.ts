import type { Kysely } from "kysely";

/**
 * Each article image's alt text, caption and credit: JSON text on both engines, an object
 * from an image's URL in `images` to its details. NULL for articles without any. `images` stays the
 * ordered list readers see (its first is the cover); revisions keep the details of each version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("image_details", "text").execute();
  await db.schema.alterTable("news_revisions").addColumn("image_details", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("image_details").execute();
  await db.schema.alterTable("news").dropColumn("image_details").execute();
}
