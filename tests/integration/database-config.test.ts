import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/db.server";
import { onPostgres, postgresUrl, TEST_POSTGRES_URL } from "../../harness/postgres";
import { createEmptyDatabase, type EmptyDatabase } from "../../harness/temp-db";
import { freePort, refusedStart as refusedStartIn } from "../../harness/test-server";

let dir: string;
let database: EmptyDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A refused start (harness/test-server.ts) in a folder of its own, removed after the test. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-config-"));
  return refusedStartIn(dir, env);
}

/** TEST_POSTGRES_URL with `change` applied. */
function testServerUrl(change: (url: URL) => void): string {
  const url = new URL(TEST_POSTGRES_URL);
  change(url);
  return url.toString();
}

describe("a database that is not the site's", () => {
  it("stops the server with a clear message when the database holds another application's tables, and leaves them alone", async () => {
    database = await createEmptyDatabase();
    const other = openDatabase(database.url);
    await sql`create table invoices (id integer primary key, total integer)`.execute(other);
    await sql`insert into invoices values (1, 100)`.execute(other);

    const output = await refusedStart({ DATABASE_URL: database.url });
    expect(output).toContain("the database holds another application's tables (invoices)");
    expect(output).toContain("empty database");
    expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const tables = (await other.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name);
    expect(tables).toEqual(["invoices"]);
    await other.destroy();
  });
});

describe.skipIf(!onPostgres)("PostgreSQL configuration (PostgreSQL pass only: it needs the test server)", () => {
  it("says the server cannot be reached when nothing listens at DATABASE_URL's host and port", async () => {
    const port = await freePort();
    const output = await refusedStart({ DATABASE_URL: testServerUrl((url) => (url.port = String(port))) });
    expect(output).toContain(`cannot reach the PostgreSQL server at 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it("says which user the server refused, without printing the password", async () => {
    // The test server trusts local logins, so a password alone is never refused: an unknown role is.
    const user = `akhbar_pgcore_nobody_${randomBytes(4).toString("hex")}`;
    const output = await refusedStart({
      DATABASE_URL: testServerUrl((url) => {
        url.username = user;
        url.password = "not-the-password";
      }),
    });
    expect(output).toContain(`refused user "${user}"`);
    expect(output).toContain("Check the user name and password in DATABASE_URL");
    expect(output).not.toContain("not-the-password");
  });

  it("says the database does not exist and how to create it", async () => {
    const name = `akhbar_pgcore_missing_${randomBytes(4).toString("hex")}`;
    const output = await refusedStart({ DATABASE_URL: postgresUrl(name) });
    expect(output).toContain(`the database "${name}" does not exist`);
    expect(output).toContain(`createdb -h 127.0.0.1 -U postgres ${name}`);
  });

  it("requires AUTH_SECRET, which every server on the database must share", async () => {
    database = await createEmptyDatabase();
    const output = await refusedStart({ DATABASE_URL: database.url, AUTH_SECRET: "" });
    expect(output).toContain("AUTH_SECRET: required with PostgreSQL");
  });
});
