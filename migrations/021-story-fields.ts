import type { Kysely } from "kysely";

const COLUMNS = ["standfirst", "slug", "share_title", "share_description", "share_image"] as const;

/**
 * The story's own fields: a standfirst under the headline, a readable slug for
 * `/news/{id}/{slug}`, a share title, description and picture (a stored media URL), and `noindex`
 * (0/1 on both engines, as `is_video`). Revisions keep them, so restoring one restores them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["news", "news_revisions"]) {
    for (const column of COLUMNS) await db.schema.alterTable(table).addColumn(column, "text").execute();
    await db.schema
      .alterTable(table)
      .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["news_revisions", "news"]) {
    for (const column of [...COLUMNS, "noindex"]) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
