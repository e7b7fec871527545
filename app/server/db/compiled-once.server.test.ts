import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { executeCompiledOnce, executeCompiledWith } from "./compiled-once.server";
import type { DB } from "./db.server";

let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  await sql`CREATE TABLE note (kind TEXT NOT NULL, n INTEGER NOT NULL)`.execute(db);
});
afterEach(() => cleanup());

const add = (kind: string, n: number) => sql`INSERT INTO note (kind, n) VALUES (${kind}, ${n})`.execute(db);

/** The notes of one kind, read through a query built once per kind; counts the builds. */
function notesOf(kind: string, builds: string[]) {
  return executeCompiledOnce(db, `notes:${kind}`, () => {
    builds.push(kind);
    return db
      .selectFrom("note" as never)
      .select(sql<number>`n`.as("n"))
      .where(sql.ref("kind"), "=", kind)
      .orderBy(sql.ref("n"));
  });
}

describe("queries compiled once", () => {
  it("builds a query once per key, and reads the rows anew every time", async () => {
    const builds: string[] = [];
    await add("a", 1);
    expect((await notesOf("a", builds)).map((row) => row.n)).toEqual([1]);
    await add("a", 2);
    await add("b", 3);
    expect((await notesOf("a", builds)).map((row) => row.n)).toEqual([1, 2]);
    expect((await notesOf("b", builds)).map((row) => row.n)).toEqual([3]);
    expect((await notesOf("a", builds)).map((row) => row.n)).toEqual([1, 2]);
    expect(builds).toEqual(["a", "b"]);
  });

  it("keeps a bounded number of queries, and answers right past that bound", async () => {
    const builds: string[] = [];
    await add("kind-7", 7);
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 300; i++)
        expect((await notesOf(`kind-${i}`, builds)).map((row) => row.n)).toEqual(i === 7 ? [7] : []);
    // Past the bound the oldest kept go first: the second round builds some again (300 kept forever would build none).
    expect(builds.length).toBeGreaterThan(300);
  });
});

describe("queries compiled once with arguments", () => {
  const notesWith = (kind: string, atLeast: string, builds: string[]) =>
    executeCompiledWith(db, "notes of a kind", [kind, atLeast], (kindArgument, atLeastArgument) => {
      builds.push(kind);
      return db
        .selectFrom("note" as never)
        .select(sql<number>`n`.as("n"))
        .where(sql.ref("kind"), "=", kindArgument)
        .where(sql.ref("n"), ">=", sql`cast(${atLeastArgument} as integer)`)
        .where(sql.ref("kind"), "!=", "never")
        .orderBy(sql.ref("n"));
    });

  it("builds the query once, and puts each run's arguments in their places, leaving its own parameters", async () => {
    const builds: string[] = [];
    for (const [kind, n] of [
      ["a", 1],
      ["a", 5],
      ["b", 3],
      ["never", 9],
    ] as const)
      await add(kind, n);
    expect((await notesWith("a", "0", builds)).map((row) => row.n)).toEqual([1, 5]);
    expect((await notesWith("a", "2", builds)).map((row) => row.n)).toEqual([5]);
    expect((await notesWith("b", "0", builds)).map((row) => row.n)).toEqual([3]);
    expect((await notesWith("never", "0", builds)).map((row) => row.n)).toEqual([]);
    expect(builds).toEqual(["a"]);
  });

  it("refuses a build that shapes its SQL with an argument instead of passing it as a parameter", async () => {
    await expect(
      executeCompiledWith(db, "shaped", ["n"], (column) =>
        db.selectFrom("note" as never).select(sql.ref(column).as("n")),
      ),
    ).rejects.toThrow(/not a parameter/);
  });
});
