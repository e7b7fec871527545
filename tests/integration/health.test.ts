import { DEFAULT_MIGRATION_TABLE, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
});
afterAll(() => stopServerAndDb({ server, db }));

async function answer(path: string) {
  const response = await fetch(`${server.url}${path}`);
  return {
    status: response.status,
    cacheControl: response.headers.get("cache-control"),
    xCache: response.headers.get("x-cache"),
    body: await response.json(),
  };
}

it("GET /healthz says the process answers, and is never stored", async () => {
  expect(await answer("/healthz")).toEqual({
    status: 200,
    cacheControl: "no-store",
    xCache: null,
    body: { status: "ok" },
  });
});

it("GET /readyz is 200 while the database answers, is current and the outbox is followed; 503 with the reason otherwise", async () => {
  expect(await answer("/readyz")).toEqual({
    status: 200,
    cacheControl: "no-store",
    xCache: null,
    body: { status: "ready" },
  });

  const migrations = sql.table(DEFAULT_MIGRATION_TABLE);
  const { rows } = await sql<{
    name: string;
    timestamp: string;
  }>`select name, timestamp from ${migrations} order by name desc limit 1`.execute(db);
  const { name, timestamp } = rows[0]!;
  await sql`delete from ${migrations} where name = ${name}`.execute(db);
  try {
    const notReady = await answer("/readyz");
    expect(notReady).toMatchObject({
      status: 503,
      cacheControl: "no-store",
      body: { status: "not-ready", reason: `the database lacks migration ${name}` },
    });
    // Alive all the same: a load balancer must not restart it for this.
    expect((await answer("/healthz")).status).toBe(200);
  } finally {
    await sql`insert into ${migrations} (name, timestamp) values (${name}, ${timestamp})`.execute(db);
  }
  expect((await answer("/readyz")).status).toBe(200);
});
