import type { Kysely } from "kysely";

/**
 * What `npm run import:firebase` has brought over, so a second run updates only what changed
 * and stores nothing twice: per imported document its fingerprint, per Firebase Storage URL the media URL
 * it was stored under, and the site visits last imported.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("firebase_imports")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("target", "text")
    .addPrimaryKeyConstraint("firebase_imports_pkey", ["kind", "source_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("firebase_imports").execute();
}
