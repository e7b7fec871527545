import SQLite from "better-sqlite3";
import { CompiledQuery, sql, type Driver } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onPostgres } from "../../../harness/postgres";
import { createTempDatabase } from "../../../harness/temp-db";
import { openBatchWriter, type BatchWriter, type DB } from "./db.server";
import { SqliteThreadDriver } from "./sqlite-thread-driver.server";

let db: DB;
let file: string;
let writer: BatchWriter;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  let url: string;
  ({ db, file, url, cleanup } = await createTempDatabase());
  await sql`CREATE TABLE note (text TEXT NOT NULL UNIQUE)`.execute(db);
  writer = openBatchWriter(url, db);
});
afterEach(async () => {
  await writer.close();
  await cleanup();
});

const notes = async () =>
  (
    await db
      .selectFrom("note" as never)
      .select(sql<string>`text`.as("text"))
      .orderBy(sql`text`)
      .execute()
  ).map((r) => r.text);
const insert = (on: DB, text: string) => sql`INSERT INTO note VALUES (${text}) RETURNING text`.execute(on);

describe.skipIf(onPostgres)("batch writes on SQLite: a connection of their own in a thread", () => {
  it("is another connection than the site's, whose reads see each transaction once it commits, whole", async () => {
    expect(writer.db).not.toBe(db);
    const returned = await writer.db.transaction().execute(async (trx) => {
      const first = await insert(trx, "one");
      await insert(trx, "two");
      expect(await notes()).toEqual([]);
      return first.rows;
    });
    expect(returned).toEqual([{ text: "one" }]);
    expect(await notes()).toEqual(["one", "two"]);
    const failed = await writer.db
      .transaction()
      .execute(async (trx) => {
        await insert(trx, "three");
        await insert(trx, "one");
      })
      .catch((error: { code?: string }) => error.code);
    expect(failed).toBe("SQLITE_CONSTRAINT_UNIQUE");
    expect(await notes()).toEqual(["one", "two"]);
  });

  it("waits for another connection's write lock in its thread, while the event loop runs and the site reads, then writes", async () => {
    const other = new SQLite(file);
    other.exec("BEGIN IMMEDIATE");
    let written = false;
    const write = insert(writer.db, "after the lock").then(() => (written = true));
    let turns = 0;
    while (turns < 50) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(written).toBe(false);
    expect(await notes()).toEqual([]);
    other.exec("COMMIT");
    other.close();
    await write;
    expect(await notes()).toEqual(["after the lock"]);
  });

  it("refuses the rest of a transaction whose thread stopped, rather than run it on a new thread outside any transaction", async () => {
    const driver: Driver = new SqliteThreadDriver(file, []);
    const connection = await driver.acquireConnection();
    await driver.beginTransaction(connection, {});
    await connection.executeQuery(CompiledQuery.raw("INSERT INTO note VALUES ('before the stop')"));
    await (driver as unknown as { pool: { close(): Promise<void> } }).pool.close();
    await expect(
      connection.executeQuery(CompiledQuery.raw("INSERT INTO note VALUES ('after the stop')")),
    ).rejects.toThrow("stopped during the transaction");
    await driver.rollbackTransaction(connection);
    await driver.releaseConnection(connection);
    expect(await notes()).toEqual([]);
    const next = await driver.acquireConnection();
    await next.executeQuery(CompiledQuery.raw("INSERT INTO note VALUES ('on the next thread')"));
    await driver.releaseConnection(next);
    await driver.destroy();
    expect(await notes()).toEqual(["on the next thread"]);
  });

  it("is the site's own connection on a database in memory, which no second connection sees", () => {
    const memory = openBatchWriter(":memory:", db);
    expect(memory.db).toBe(db);
  });
});

describe.runIf(onPostgres)("batch writes on PostgreSQL", () => {
  it("go through the site's pool, whose queries already wait off the event loop", () => {
    expect(writer.db).toBe(db);
  });
});
