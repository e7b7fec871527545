import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { onPostgres } from "../../../harness/postgres";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "./db.server";
import { NonBlockingSqliteDriver } from "./sqlite-driver.server";

let db: DB;
let file: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, file, cleanup } = await createTempDatabase());
  await sql`CREATE TABLE note (text TEXT NOT NULL)`.execute(db);
});
afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const notes = async () =>
  (
    await db
      .selectFrom("note" as never)
      .select(sql<string>`text`.as("text"))
      .execute()
  ).map((r) => r.text);

// Our driver for SQLite's single write lock; PostgreSQL goes through pg's pool.
describe.skipIf(onPostgres)("the SQLite driver (SQLite only)", () => {
  it("keeps other statements out of an open transaction: they wait for its end and are not rolled back with it", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO note VALUES ('in the transaction')`.execute(trx);
        await held;
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setImmediate(resolve));
    const outside = sql`INSERT INTO note VALUES ('outside')`.execute(db);
    release();
    expect(await transaction).toBe("roll back");
    await outside;
    expect(await notes()).toEqual(["outside"]);
  });

  it("waits for another process's write lock on timers, so the event loop keeps running, then writes", async () => {
    const other = new SQLite(file);
    other.exec("BEGIN IMMEDIATE");
    let written = false;
    const write = sql`INSERT INTO note VALUES ('after the lock')`.execute(db).then(() => (written = true));
    let ticks = 0;
    while (ticks < 5) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      ticks++;
    }
    expect(written).toBe(false);
    expect(await notes()).toEqual([]); // reads go on meanwhile
    other.exec("COMMIT");
    other.close();
    await write;
    expect(await notes()).toEqual(["after the lock"]);
  });

  it("never runs a statement that waited for the lock inside a transaction that began meanwhile", async () => {
    // The driver's retry pauses run on this clock, so the test decides when the waiting insert wakes.
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const other = new SQLite(file);
    other.exec("BEGIN IMMEDIATE");
    const outside = sql`INSERT INTO note VALUES ('outside')`.execute(db);
    await new Promise((resolve) => setImmediate(resolve)); // its first try met the lock; it now waits on a timer
    other.exec("COMMIT");
    other.close();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun = () => {};
    const inTransaction = new Promise<void>((resolve) => (begun = resolve));
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO note VALUES ('inside')`.execute(trx);
        begun();
        await held;
        throw new Error("roll back");
      })
      .catch(() => "rolled back");
    await inTransaction;
    // Past the driver's first retry pause (at most 1.5 × 5 ms): the waiting insert wakes up inside.
    await vi.advanceTimersByTimeAsync(50);
    release();
    expect(await transaction).toBe("rolled back");
    await outside;
    expect(await notes()).toEqual(["outside"]);
  });
});

describe.skipIf(onPostgres)("the SQLite driver's prepared statements (SQLite only)", () => {
  it("reuses a statement for the same SQL, never gives one SQL's statement for another, and stays within its size", async () => {
    const database = new SQLite(file);
    try {
      const driver = new NonBlockingSqliteDriver(database, 3);
      const texts = Array.from({ length: 8 }, (_, i) => `SELECT ${i} AS n`);
      const first = driver.statement(texts[0]!);
      expect(driver.statement(texts[0]!)).toBe(first);
      for (let round = 0; round < 3; round++) {
        for (const [i, text] of texts.entries()) {
          const statement = driver.statement(text);
          expect(statement.source).toBe(text);
          expect(statement.get()).toEqual({ n: i });
          expect(driver.statements.size).toBeLessThanOrEqual(3);
        }
      }
      expect(driver.statement(texts[0]!)).not.toBe(first);
    } finally {
      database.close();
    }
  });

  it("answers queries through the cache with the rows of their own parameters", async () => {
    await sql`INSERT INTO note VALUES ('a'), ('b'), ('c')`.execute(db);
    const only = (text: string) =>
      db
        .selectFrom("note" as never)
        .select(sql<string>`text`.as("text"))
        .where(sql`text`, "=", text)
        .execute();
    for (const text of ["a", "b", "c", "a"]) expect(await only(text)).toEqual([{ text }]);
  });
});
