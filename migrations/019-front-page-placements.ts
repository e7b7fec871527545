import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * The front page editors choose (decision 031): one row per slot, `slide:1`…`slide:4` (slide
 * 1 is the lead story) and `pin:<category>` (the story on top of its category), each until `until`.
 * A slot no row holds is filled by the rule (app/server/news/front-page.server.ts).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("front_page_placements")
    .addColumn("slot", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("category", "text")
    .addColumn("news_id", "text", (c) => c.notNull())
    .addColumn("until", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("set_by", "text")
    .addColumn("set_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  // The scheduler's round: placements whose time has ended.
  await db.schema.createIndex("front_page_placements_until_idx").on("front_page_placements").column("until").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("front_page_placements").execute();
}
