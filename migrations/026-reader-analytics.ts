import type { Kysely } from "kysely";

/**
 * Readers' analytics (decision 039). `visit_allowances`: per keyed hash of address, target
 * and day, how many distinct browsers counted (the inflation bound). `stats_hourly` (UTC hours, kept
 * 90 days) and `stats_daily` (Beirut days, kept for ever): views per story, source class and device
 * class. `stats_readers`: distinct browsers per hour or day. `stats_live`: who read what in the last
 * minutes, a short keyed hash per browser, pruned after ten minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("visit_allowances")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("visit_allowances_day_idx").on("visit_allowances").column("day").execute();
  for (const table of ["stats_hourly", "stats_daily"] as const) {
    await db.schema
      .createTable(table)
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("news_id", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("device", "text", (c) => c.notNull())
      .addColumn("views", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ["period", "news_id", "source", "device"])
      .execute();
    await db.schema.createIndex(`${table}_news_idx`).on(table).columns(["news_id", "period"]).execute();
  }
  await db.schema
    .createTable("stats_readers")
    .addColumn("period", "text", (c) => c.primaryKey())
    .addColumn("readers", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("stats_live")
    .addColumn("minute", "integer", (c) => c.notNull())
    .addColumn("news_id", "text", (c) => c.notNull())
    .addColumn("reader", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("stats_live_pk", ["minute", "news_id", "reader"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("stats_live").execute();
  await db.schema.dropTable("stats_readers").execute();
  await db.schema.dropTable("stats_daily").execute();
  await db.schema.dropTable("stats_hourly").execute();
  await db.schema.dropTable("visit_allowances").execute();
}
