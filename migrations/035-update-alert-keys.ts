import { sql, type Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * A live update's alert keyed by its own column: `live_update_id`, unique, where its key was written
 * into `article_id` as "<story>#update-<update>". `article_id` now always names the story, unique
 * among the stories' own alerts (those with no update). SQLite cannot drop a column's UNIQUE, so the
 * table is made again there, its ids and their sequence kept.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === "postgres") await sql`alter table push_alerts drop constraint push_alerts_article_id_key`.execute(db);
  else await rebuildOnSqlite(db, engine, false);
  const story =
    engine === "postgres"
      ? sql`split_part(article_id, '#update-', 1)`
      : sql`substr(article_id, 1, instr(article_id, '#update-') - 1)`;
  await sql`update push_alerts set article_id = ${story} where live_update_id is not null and article_id like '%#update-%'`.execute(
    db,
  );
  await db.schema
    .createIndex("push_alerts_story_key")
    .on("push_alerts")
    .column("article_id")
    .unique()
    .where(sql.ref("live_update_id"), "is", null)
    .execute();
  await db.schema.createIndex("push_alerts_update_key").on("push_alerts").column("live_update_id").unique().execute();
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.dropIndex("push_alerts_update_key").execute();
  await db.schema.dropIndex("push_alerts_story_key").execute();
  await sql`update push_alerts set article_id = article_id || '#update-' || live_update_id where live_update_id is not null`.execute(
    db,
  );
  if (engine === "postgres")
    await sql`alter table push_alerts add constraint push_alerts_article_id_key unique (article_id)`.execute(db);
  else await rebuildOnSqlite(db, engine, true);
}

const COLUMNS = sql.raw(
  "id, article_id, kind, created_at, payload, category, sent, delivered, failed, removed, opened, repeated, live_update_id",
);

/** push_alerts made again on SQLite with its rows, ids and sequence, `article_id` unique or not. */
async function rebuildOnSqlite(db: Kysely<unknown>, engine: Engine, articleUnique: boolean): Promise<void> {
  const { rows } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'push_alerts'`.execute(db);
  await db.schema
    .createTable("push_alerts_rebuilt")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("article_id", "text", (c) => (articleUnique ? c.notNull().unique() : c.notNull()))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("payload", "text")
    .addColumn("category", "text")
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("delivered", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("removed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("opened", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("repeated", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("live_update_id", "text")
    .execute();
  await sql`insert into push_alerts_rebuilt (${COLUMNS}) select ${COLUMNS} from push_alerts order by id`.execute(db);
  await db.schema.dropTable("push_alerts").execute();
  await db.schema.alterTable("push_alerts_rebuilt").renameTo("push_alerts").execute();
  if (rows[0]) {
    // The copied ids are at most the old sequence, which counts alerts since deleted too.
    await sql`delete from sqlite_sequence where name = 'push_alerts'`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values ('push_alerts', ${rows[0].seq})`.execute(db);
  }
  await db.schema.createIndex("push_alerts_created_at_idx").on("push_alerts").column("created_at").execute();
}
