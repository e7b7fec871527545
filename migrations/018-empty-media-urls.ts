import { sql, type Kysely } from "kysely";

/**
 * An article saved without an image address or video field (the JSON API, the editor's form) stored
 * an empty text where "none" is NULL: lists that look for a picture took it for one (a slide without
 * its image). Such values become NULL, on articles and their revisions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["news", "news_revisions"]) {
    for (const column of ["image_url", "video"]) {
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = null where ${sql.ref(column)} = ''`.execute(db);
    }
  }
}

export async function down(): Promise<void> {}
