import type { Kysely } from "kysely";

/**
 * An article's body as a structured document: the JSON of `app/lib/rich-text/document.ts`,
 * text on both engines. NULL for articles written before, which read as paragraphs of `content`;
 * `content` stays as the body's plain text for search, snippets, feeds and share text. Revisions keep
 * the body of each version.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news").addColumn("body", "text").execute();
  await db.schema.alterTable("news_revisions").addColumn("body", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("body").execute();
  await db.schema.alterTable("news").dropColumn("body").execute();
}
