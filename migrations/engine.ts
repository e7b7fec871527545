/** The database engines the migrations write for; migrate.server.ts passes each migration its engine. */
export type Engine = "sqlite" | "postgres";

/**
 * A column holding a moment. PostgreSQL gets `timestamptz` (its `date` would drop the time); SQLite
 * keeps the type the migration first created there, since existing sites already ran it.
 */
export function momentType(engine: Engine, onSqlite: "text" | "date") {
  return engine === "postgres" ? ("timestamptz" as const) : onSqlite;
}

/** A yes/no column: `boolean` on PostgreSQL, 0/1 `integer` on SQLite. */
export function flagType(engine: Engine) {
  return engine === "postgres" ? ("boolean" as const) : ("integer" as const);
}

/** The "no" a flag column defaults to. */
export function flagOff(engine: Engine): boolean | number {
  return engine === "postgres" ? false : 0;
}
