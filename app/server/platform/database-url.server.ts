/** What DATABASE_URL names: a PostgreSQL server (`postgres://`, `postgresql://`) or a SQLite file. */
export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(databaseUrl);
}

/** The SQLite file a DATABASE_URL names (a path or a `file:` URL). */
export function databaseFile(databaseUrl: string): string {
  return databaseUrl.startsWith("file:") ? databaseUrl.slice("file:".length) : databaseUrl;
}

/** Connections per process on PostgreSQL unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;
