import { DEFAULT_MIGRATION_TABLE, sql } from "kysely";
import { migrationsFor } from "../../../migrations/index";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { Readiness } from "~/server/http/health-routes.server";
import type { OutboxFollower } from "~/server/outbox/follower.server";

/** How long the database may take to answer a readiness check. */
const DATABASE_ANSWER_MS = 2_000;
/** How old the follower's last successful read may be: well past PostgreSQL's 2 s fallback poll. */
const FOLLOWED_WITHIN_MS = 5_000;

function latestMigration(db: DB): string {
  return (
    Object.keys(migrationsFor(dialectName(db)))
      .sort()
      .at(-1) ?? ""
  );
}

async function within<T>(ms: number, work: Promise<T>): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /readyz: whether this process should get traffic. One indexed query shows that the database
 * answers and holds this version's newest migration; the follower shows that it reads the outbox.
 */
export async function readiness(db: DB, follower: OutboxFollower, now = Date.now()): Promise<Readiness> {
  if (!follower.running()) return { ready: false, reason: "not following the outbox (starting or stopping)" };
  const latest = latestMigration(db);
  let answer: { rows: unknown[] } | "timeout";
  try {
    answer = await within(
      DATABASE_ANSWER_MS,
      sql`select 1 from ${sql.table(DEFAULT_MIGRATION_TABLE)} where name = ${latest}`.execute(db),
    );
  } catch (error) {
    return {
      ready: false,
      reason: `the database refused the check: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (answer === "timeout")
    return { ready: false, reason: `the database did not answer within ${DATABASE_ANSWER_MS / 1000} s` };
  if (answer.rows.length === 0) return { ready: false, reason: `the database lacks migration ${latest}` };
  const lastRead = follower.lastReadAt();
  if (lastRead === null || now - lastRead > FOLLOWED_WITHIN_MS) {
    return {
      ready: false,
      reason: `the outbox was last read ${lastRead === null ? "never" : `${Math.round((now - lastRead) / 1000)} s ago`}`,
    };
  }
  return { ready: true };
}
