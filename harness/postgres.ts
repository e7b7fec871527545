import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server the PostgreSQL pass creates its databases on (any database of it; we connect to `postgres`). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** What the tests' database names begin with: TEST_DATABASE_PREFIX lets people sharing one server keep theirs apart. */
const NAME_PREFIX = process.env.TEST_DATABASE_PREFIX ?? "akhbar_";

/** True when the tests run on PostgreSQL (TEST_DATABASE=postgres), false on SQLite. */
export const onPostgres = process.env.TEST_DATABASE === "postgres";

/** `name` on the test server (or on `server`), as a URL. */
export function postgresUrl(name: string, server = TEST_POSTGRES_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>, server = TEST_POSTGRES_URL): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export type TempPostgres = { name: string; url: string; drop: () => Promise<void> };

/** A fresh, empty database on the test server (or on `server`) under a unique name, and how to drop it. */
export async function createPostgresDatabase(
  prefix = `${NAME_PREFIX}test_`,
  server = TEST_POSTGRES_URL,
): Promise<TempPostgres> {
  const name = `${prefix}${randomBytes(6).toString("hex")}`;
  await createNamedPostgresDatabase(name, server);
  return {
    name,
    url: postgresUrl(name, server),
    drop: () => dropPostgresDatabase(name, server),
  };
}

/**
 * Names the databases one test run empties and reuses (`reusableEmptyDatabase`), so that the run drops them at
 * its end (`dropReusedDatabases`) and never another run's. Set by the run's global set-up, inherited by its workers.
 */
export const TEST_RUN_VARIABLE = "AKHBAR_TEST_RUN";
const REUSED_PREFIX = `${NAME_PREFIX}reused_`;

/** This process's databases, emptied and waiting for the next test. */
const emptied: string[] = [];

/**
 * An empty database on the test server, as createPostgresDatabase gives, whose `drop` empties it for this process's
 * next test instead: PostgreSQL takes a second or more and a checkpoint to make and drop a database, and
 * milliseconds to drop its schemas. Without a test run (TEST_RUN_VARIABLE), a database of its own.
 */
export async function reusableEmptyDatabase(): Promise<TempPostgres> {
  const run = process.env[TEST_RUN_VARIABLE];
  if (!run) return createPostgresDatabase();
  let name = emptied.pop();
  if (!name) {
    name = `${REUSED_PREFIX}${run}_${randomBytes(6).toString("hex")}`;
    await createNamedPostgresDatabase(name);
  }
  const reused = name;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    emptied.push(await emptyDatabase(reused));
  };
  return { name: reused, url: postgresUrl(reused), drop };
}

/** Ends every other connection to database `name` and drops its schemas, leaving it as `create database` makes it. */
async function emptyDatabase(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: postgresUrl(name) });
  await client.connect();
  try {
    await client.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'",
    );
    const drops = rows.map((row) => `drop schema "${row.name}" cascade;`).join(" ");
    await client.query(
      `${drops} create schema public authorization pg_database_owner; grant usage on schema public to public;`,
    );
  } finally {
    await client.end();
  }
  return name;
}

/** Drops the databases test run `run` reused (reusableEmptyDatabase). */
export async function dropReusedDatabases(run: string): Promise<void> {
  const { rows } = await onServer((client) =>
    client.query<{ name: string }>("select datname as name from pg_database where datname like $1", [
      `${REUSED_PREFIX}${run}\\_%`,
    ]),
  );
  for (const { name } of rows) await dropPostgresDatabase(name);
}

/** Creates database `name` on the test server (or on `server`): empty, or a copy of database `template`, which nobody may be connected to. */
export async function createNamedPostgresDatabase(
  name: string,
  server = TEST_POSTGRES_URL,
  template?: string,
): Promise<void> {
  await onServer(async (client) => {
    await client.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    // As SQLite's synchronous=NORMAL: a commit does not wait for its fsync. Test data need not survive a crash.
    await client.query(`alter database "${name}" set synchronous_commit = off`);
  }, server);
}

export async function dropPostgresDatabase(name: string, server = TEST_POSTGRES_URL): Promise<void> {
  await onServer((client) => client.query(`drop database if exists "${name}" with (force)`), server);
}
