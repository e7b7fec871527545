import { sql } from "kysely";
import type { DB } from "./db.server";

export type ConnectionBudget = {
  /** What this instance may open: each process's pool and its LISTEN connection. */
  wanted: number;
  /** Client connections already open on the server, by other instances and applications. */
  open: number;
  /** What the server accepts from ordinary users: max_connections less the superusers' reserve. */
  allowed: number;
};

/** PostgreSQL's connections against what this instance's processes may open; null when they fit. */
export async function connectionShortfall(
  db: DB,
  processes: number,
  poolSize: number,
): Promise<ConnectionBudget | null> {
  const { rows } = await sql<{ max: number; reserved: number; open: number }>`
    select current_setting('max_connections')::int as max,
      current_setting('superuser_reserved_connections')::int as reserved,
      (select count(*)::int from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()) as open`.execute(
    db,
  );
  const { max, reserved, open } = rows[0]!;
  const budget = { wanted: processes * (poolSize + 1), open, allowed: max - reserved };
  return budget.wanted + budget.open > budget.allowed ? budget : null;
}
