import { Kysely } from "kysely";
import { config } from "~/server/platform/config.server";
import { createDialect } from "./dialect.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

export function openDatabase(databaseUrl: string): DB {
  return new Kysely<Database>({ dialect: createDialect(databaseUrl).dialect });
}

let shared: DB | undefined;

/** The process-wide connection, opened on first use from the configuration. */
export function db(): DB {
  shared ??= openDatabase(config().databaseUrl);
  return shared;
}

/** Closes the process-wide connection (on shutdown); a later db() opens a new one. */
export async function closeDatabase(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.destroy();
}
