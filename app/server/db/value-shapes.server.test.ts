import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { onPostgres } from "../../../harness/postgres";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "./db.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const CREATED = "2026-03-01T09:15:30.123Z";

it("gives domain code the same shapes on both engines: ISO moments, 0/1 flags, numeric counts and counters", async () => {
  await db
    .insertInto("news")
    .values({
      id: "a1",
      title: "t",
      content: "c",
      category: "local",
      images: "[]",
      is_video: 1,
      status: "published",
      created_at: CREATED,
    })
    .execute();
  await db.updateTable("site_stats").set({ total_visits: 5_000_000_000 }).execute();

  const row = await db
    .selectFrom("news")
    .select(["is_video", "created_at", "published_at", "visits"])
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ is_video: 1, created_at: CREATED, published_at: null, visits: 0 });
  const { n } = await db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  expect(n).toBe(1);
  const stats = await db.selectFrom("site_stats").select("total_visits").executeTakeFirstOrThrow();
  expect(stats.total_visits).toBe(5_000_000_000);
  expect(await db.selectFrom("news").select("id").where("is_video", "=", 0).execute()).toEqual([]);
  expect(
    await db.selectFrom("news").select("id").where("created_at", ">", "2026-03-01T09:15:30.000Z").execute(),
  ).toEqual([{ id: "a1" }]);
});

it.runIf(onPostgres)(
  "stores moments with their time, flags as booleans and counters as bigint on PostgreSQL",
  async () => {
    const { rows } = await sql<{ column: string; type: string }>`
    select table_name || '.' || column_name as column, data_type as type from information_schema.columns
    where table_schema = current_schema() and table_name || '.' || column_name in
      ('news.created_at', 'news.is_video', 'session.expiresAt', 'user.emailVerified', 'site_stats.total_visits', 'auth_attempts.at')
    order by 1`.execute(db);
    expect(rows).toEqual([
      { column: "auth_attempts.at", type: "bigint" },
      { column: "news.created_at", type: "timestamp with time zone" },
      { column: "news.is_video", type: "boolean" },
      { column: "session.expiresAt", type: "timestamp with time zone" },
      { column: "site_stats.total_visits", type: "bigint" },
      { column: "user.emailVerified", type: "boolean" },
    ]);
  },
);

it.runIf(onPostgres)(
  "keeps PostgreSQL's own types for libraries that read through the handle without plugins (better-auth)",
  async () => {
    await db
      .insertInto("user")
      .values({
        id: "u1",
        name: "n",
        email: "u1@example.com",
        emailVerified: 1,
        createdAt: CREATED,
        updatedAt: CREATED,
      })
      .execute();
    const raw = await db
      .withoutPlugins()
      .selectFrom("user")
      .select(["createdAt", "emailVerified"])
      .executeTakeFirstOrThrow();
    expect(raw.createdAt).toEqual(new Date(CREATED));
    expect(raw.emailVerified).toBe(true);
    const shaped = await db.selectFrom("user").select(["createdAt", "emailVerified"]).executeTakeFirstOrThrow();
    expect(shaped).toEqual({ createdAt: CREATED, emailVerified: 1 });
  },
);
