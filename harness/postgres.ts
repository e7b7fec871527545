import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server the PostgreSQL pass creates its databases on (any database of it; we connect to `postgres`). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

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
export async function createPostgresDatabase(prefix = "akhbar_test_", server = TEST_POSTGRES_URL): Promise<TempPostgres> {
  const name = `${prefix}${randomBytes(6).toString("hex")}`;
  await createNamedPostgresDatabase(name, server);
  return {
    name,
    url: postgresUrl(name, server),
    drop: () => dropPostgresDatabase(name, server),
  };
}

/** Creates database `name` on the test server (or on `server`): empty, or a copy of database `template`, which nobody may be connected to. */
export async function createNamedPostgresDatabase(name: string, server = TEST_POSTGRES_URL, template?: string): Promise<void> {
  await onServer(async (client) => {
    await client.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    // As SQLite's synchronous=NORMAL: a commit does not wait for its fsync. Test data need not survive a crash.
    await client.query(`alter database "${name}" set synchronous_commit = off`);
  }, server);
}

export async function dropPostgresDatabase(name: string, server = TEST_POSTGRES_URL): Promise<void> {
  await onServer((client) => client.query(`drop database if exists "${name}" with (force)`), server);
}

/** Runs `statements` in database `name` of the test server. */
export async function runInPostgresDatabase(name: string, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl(name) });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}
