import SQLite from "better-sqlite3";
import pg from "pg";
import { databaseFile, isPostgresUrl } from "~/server/platform/database-url.server";

/**
 * Holds back every write of a story to the database at `url` until `release`, with the engine's own
 * lock, from a connection of the test's: SQLite's write lock (BEGIN IMMEDIATE), or PostgreSQL's lock
 * of the news table in share mode. Reads go on meanwhile.
 */
export async function holdArticleWrites(url: string): Promise<{ release: () => Promise<void> }> {
  if (!isPostgresUrl(url)) {
    const holder = new SQLite(databaseFile(url));
    holder.exec("BEGIN IMMEDIATE");
    return {
      release: async () => {
        holder.exec("COMMIT");
        holder.close();
      },
    };
  }
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query("begin; lock table news in share mode");
  return {
    release: async () => {
      await holder.query("rollback");
      await holder.end();
    },
  };
}
