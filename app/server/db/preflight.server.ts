import { sql } from "kysely";
import { AppError } from "~/server/platform/app-error.server";
import { ConfigurationError } from "~/server/platform/config.server";
import type { DB } from "./db.server";
import { isPostgresUrl } from "~/server/platform/database-url.server";

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"]);
/** PostgreSQL's SQLSTATEs for a refused login and a missing database. */
const REFUSED_LOGIN = new Set(["28P01", "28000"]);
const MISSING_DATABASE = "3D000";
const SHOWN_TABLES = 5;

/** The server, user and database a PostgreSQL URL names, never its password. */
function describe(databaseUrl: string): { server: string; user: string; database: string } {
  const url = new URL(databaseUrl);
  return {
    server: `${url.hostname}:${url.port || "5432"}`,
    user: decodeURIComponent(url.username) || "(the system user)",
    database: decodeURIComponent(url.pathname.slice(1)) || "(the user's name)",
  };
}

/** Why a PostgreSQL connection failed, as an operator can act on it; undefined for other errors. */
function connectionProblem(failure: unknown, databaseUrl: string): string | undefined {
  // The driver answers a failed connection as an AppError (503); what went wrong is its cause.
  const error = AppError.is(failure) ? failure.cause : failure;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const { server, user, database } = describe(databaseUrl);
  if ((typeof code === "string" && UNREACHABLE.has(code)) || /timeout/i.test(message)) {
    return `DATABASE_URL: cannot reach the PostgreSQL server at ${server} (${code ?? message}). Is it running, and do the host and port in DATABASE_URL name it?`;
  }
  if (typeof code === "string" && REFUSED_LOGIN.has(code)) {
    return `DATABASE_URL: the PostgreSQL server at ${server} refused user "${user}": ${message}. Check the user name and password in DATABASE_URL.`;
  }
  if (code === MISSING_DATABASE) {
    return `DATABASE_URL: the database "${database}" does not exist on the PostgreSQL server at ${server}. Create it first: createdb -h ${server.split(":")[0]} -U ${user} ${database}`;
  }
  return undefined;
}

/**
 * Before migrating: the database answers, and is ours or empty. Our migrations would otherwise add
 * their tables beside another application's. Throws a ConfigurationError saying what to change.
 */
export async function assertUsableDatabase(db: DB, databaseUrl: string): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    const problem = isPostgresUrl(databaseUrl) ? connectionProblem(error, databaseUrl) : undefined;
    if (problem) throw new ConfigurationError(problem);
    throw error;
  }
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
  if (tables.length === 0 || tables.includes("kysely_migration")) return;
  const shown = tables.slice(0, SHOWN_TABLES).join(", ") + (tables.length > SHOWN_TABLES ? ", …" : "");
  throw new ConfigurationError(
    `DATABASE_URL: the database holds another application's tables (${shown}) and none of Akhbar's migrations. Give Akhbar an empty database of its own (e.g. createdb akhbar) and point DATABASE_URL at it.`,
  );
}
