import { sql, type Kysely } from "kysely";
import { flagOff, flagType, momentType, type Engine } from "./engine";

// Migrations take Kysely<unknown>: they describe the schema at their point in history.
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const newsMoment = momentType(engine, "text");
  const authMoment = momentType(engine, "date");
  await db.schema
    .createTable("news")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("images", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("image_url", "text")
    .addColumn("video", "text")
    .addColumn("is_video", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("published"))
    .addColumn("visits", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("author_id", "text")
    .addColumn("created_at", newsMoment, (c) => c.notNull())
    .addColumn("updated_at", newsMoment)
    .addColumn("published_at", newsMoment)
    .execute();
  await db.schema.createIndex("news_status_created_idx").on("news").columns(["status", "created_at"]).execute();
  await db.schema
    .createIndex("news_status_category_created_idx")
    .on("news")
    .columns(["status", "category", "created_at"])
    .execute();
  await db.schema.createIndex("news_status_visits_idx").on("news").columns(["status", "visits"]).execute();

  await db.schema
    .createTable("short_links")
    .addColumn("short_id", "text", (c) => c.primaryKey())
    .addColumn("long_url", "text", (c) => c.notNull())
    .addColumn("news_id", "text", (c) => c.notNull().unique().references("news.id").onDelete("cascade"))
    .addColumn("created_at", newsMoment, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("site_stats")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("total_visits", engine === "postgres" ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into site_stats (id, total_visits) values (1, 0)`.execute(db);

  // better-auth's tables, in the shape its getMigrations expects (checked by a test).
  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", flagType(engine), (c) => c.notNull().defaultTo(flagOff(engine)))
    .addColumn("image", "text")
    .addColumn("createdAt", authMoment, (c) => c.notNull())
    .addColumn("updatedAt", authMoment, (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
    .execute();
  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("expiresAt", authMoment, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", authMoment, (c) => c.notNull())
    .addColumn("updatedAt", authMoment, (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("session_userId_idx").on("session").column("userId").execute();
  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", authMoment)
    .addColumn("refreshTokenExpiresAt", authMoment)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", authMoment, (c) => c.notNull())
    .addColumn("updatedAt", authMoment, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("account_userId_idx").on("account").column("userId").execute();
  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", authMoment, (c) => c.notNull())
    .addColumn("createdAt", authMoment, (c) => c.notNull())
    .addColumn("updatedAt", authMoment, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verification_identifier_idx").on("verification").column("identifier").execute();
  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("lastRequest", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "rateLimit",
    "verification",
    "account",
    "session",
    "user",
    "site_stats",
    "short_links",
    "news",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
