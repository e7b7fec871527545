import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { onPostgres } from "../../../harness/postgres";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "./db.server";
import { databaseErrorOf, isDatabaseFull } from "./faults.server";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
const answer = (error: unknown) => {
  const known = databaseErrorOf(error);
  return AppError.is(known)
    ? { status: known.status, message: known.message, retryAfter: known.retryAfterSeconds }
    : "unchanged";
};
const busy = { status: 503, message: messages.databaseBusy, retryAfter: 5 };
const lost = { status: 503, message: messages.databaseUnavailable, retryAfter: 5 };
const full = { status: 507, message: messages.databaseFull, retryAfter: undefined };

describe("what a database fault means for the request, on either engine", () => {
  it.each([
    ["SQLite's busy lock", withCode("SQLITE_BUSY"), busy],
    ["PostgreSQL's lock_timeout", withCode("55P03"), busy],
    ["a deadlock", withCode("40P01"), busy],
    ["SQLite's full disk", withCode("SQLITE_FULL"), full],
    ["SQLite's WAL index that cannot grow", withCode("SQLITE_IOERR_SHMSIZE"), full],
    ["PostgreSQL's full disk", withCode("53100"), full],
    ["a folder that cannot grow", withCode("ENOSPC"), full],
    ["SQLite's I/O error", withCode("SQLITE_IOERR_WRITE"), lost],
    ["a server shutting down", withCode("57P01"), lost],
    ["the connection limit", withCode("53300"), lost],
    ["a broken connection (SQLSTATE class 08)", withCode("08006"), lost],
    ["a refused connection", withCode("ECONNREFUSED"), lost],
    ["pg's own lost connection", new Error("Connection terminated unexpectedly"), lost],
    ["a unique violation", withCode("23505"), "unchanged"],
    ["SQLite's constraint", withCode("SQLITE_CONSTRAINT_UNIQUE"), "unchanged"],
    ["a bug", new TypeError("x is undefined"), "unchanged"],
  ])("%s", (_, error, expected) => {
    expect(answer(error)).toEqual(expected);
  });

  it("tells the database's full disk from the media folder's", () => {
    expect(isDatabaseFull(databaseErrorOf(withCode("SQLITE_FULL")))).toBe(true);
    expect(isDatabaseFull(new AppError("storage-full"))).toBe(false);
  });
});

describe.runIf(onPostgres)("a connection PostgreSQL ends while it is lent out between queries", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
  afterEach(async () => cleanup());

  it("neither ends the process nor leaves the pool broken: its next query answers 503, the next connection works", async () => {
    await db.connection().execute(async (lent) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(lent);
      const pid = rows[0]!.pid;
      await sql`select pg_terminate_backend(${pid})`.execute(db);
      // The backend is gone once PostgreSQL no longer lists it; its FATAL message reached the client before.
      while ((await sql`select 1 from pg_stat_activity where pid = ${pid}`.execute(db)).rows.length > 0);
      await expect(sql`select 1`.execute(lent)).rejects.toMatchObject({
        code: "unavailable",
        message: messages.databaseUnavailable,
      });
    });
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("ended during a query: the query answers 503 and the pool never lends that connection again", async () => {
    const { pid, failed } = await db.connection().execute(async (lent) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(lent);
      const pid = rows[0]!.pid;
      const sleeping = sql`select pg_sleep(30)`.execute(lent).catch((error: unknown) => error);
      while (
        (await sql`select 1 from pg_stat_activity where pid = ${pid} and query like 'select pg_sleep%'`.execute(db))
          .rows.length === 0
      );
      await sql`select pg_terminate_backend(${pid})`.execute(db);
      return { pid, failed: await sleeping };
    });
    expect(failed).toMatchObject({ code: "unavailable", message: messages.databaseUnavailable });
    const pids = await Promise.all(
      Array.from({ length: 10 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)),
    );
    expect(pids.map(({ rows }) => rows[0]!.pid)).not.toContain(pid);
  });
});
