import type { Compilable, CompiledQuery } from "kysely";
import { BoundedCache } from "~/lib/bounded-cache";
import type { DB } from "./db.server";

/** Distinct keys kept per database (a key per list and page asked for), the oldest dropped first past it. */
const KEPT_PER_DATABASE = 256;
const compiledBy = new WeakMap<DB, BoundedCache<string, CompiledQuery>>();

/**
 * Runs a query that `build` makes, building and compiling it once per database and `key`: a list
 * read on every page view then costs its statement, not the same SQL put together again. `key` must
 * name every input `build` uses.
 */
export async function executeCompiledOnce<R>(db: DB, key: string, build: () => Compilable<R>): Promise<R[]> {
  let kept = compiledBy.get(db);
  if (!kept) compiledBy.set(db, (kept = new BoundedCache({ maxEntries: KEPT_PER_DATABASE })));
  const compiled = kept.get(key, () => build().compile()) as CompiledQuery<R>;
  return (await db.executeQuery(compiled)).rows;
}
