import type { Compilable, CompiledQuery } from "kysely";
import { BoundedCache } from "~/lib/bounded-cache";
import type { DB } from "./db.server";

/** Distinct keys kept per database (a key per list and page asked for), the oldest dropped first past it. */
const KEPT_PER_DATABASE = 256;
const compiledBy = new WeakMap<DB, BoundedCache<string, CompiledQuery>>();
const compiledWithBy = new WeakMap<DB, BoundedCache<string, { compiled: CompiledQuery; places: number[] }>>();

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

/** A stand-in no stored value equals, one per argument of a query compiled with arguments. */
const standIn = (index: number) => `\u0000argument ${index}\u0000`;

/**
 * Like executeCompiledOnce, for a query that differs only by `values` (ids, slugs): `build` is called
 * once per `key` with stand-ins, and each run puts `values` in the stand-ins' places among the compiled
 * parameters. `build` may use its arguments only as parameters, never to shape the SQL.
 */
export async function executeCompiledWith<R>(
  db: DB,
  key: string,
  values: readonly string[],
  build: (...args: string[]) => Compilable<R>,
): Promise<R[]> {
  let kept = compiledWithBy.get(db);
  if (!kept) compiledWithBy.set(db, (kept = new BoundedCache({ maxEntries: KEPT_PER_DATABASE })));
  const { compiled, places } = kept.get(key, () => {
    const compiled = build(...values.map((_, index) => standIn(index))).compile();
    const places = compiled.parameters.map((parameter) => values.findIndex((_, index) => parameter === standIn(index)));
    if (values.some((_, index) => !places.includes(index)))
      throw new Error(`${key}: an argument is not a parameter of the query it builds`);
    return { compiled, places };
  });
  const parameters = compiled.parameters.map((parameter, i) => (places[i]! >= 0 ? values[places[i]!] : parameter));
  return (await db.executeQuery({ ...compiled, parameters } as CompiledQuery<R>)).rows;
}
