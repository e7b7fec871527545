import { sql, type Kysely } from "kysely";
import { dialectName } from "./dialect.server";
import type { Database } from "./schema";

/**
 * Inside a transaction: waits until no other transaction holds any of `keys`, then holds them to its
 * end, so check-then-write on those keys is not raced. SQLite runs one write transaction at a time
 * already; PostgreSQL takes a transaction-scoped advisory lock per key, in one order against deadlocks.
 */
export async function lockKeys(trx: Kysely<Database>, keys: string[]): Promise<void> {
  if (dialectName(trx) !== "postgres") return;
  for (const key of [...new Set(keys)].sort()) await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}
