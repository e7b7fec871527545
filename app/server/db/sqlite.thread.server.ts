import SQLite from "better-sqlite3";
import { serveJobs, threadData } from "~/server/platform/thread-jobs.server";
import type { SqliteThreadSettings, SqliteRequest, SqliteAnswer } from "./sqlite-thread-driver.server";

/** The SQLite thread: its own connection to the file, which waits for the write lock here, each statement prepared once. */
const STATEMENTS_KEPT = 200;

const { file, pragmas, lockWaitMs } = threadData<SqliteThreadSettings>();
const database = new SQLite(file);
for (const pragma of pragmas) database.pragma(pragma);
database.pragma(`busy_timeout = ${lockWaitMs}`);
const statements = new Map<string, SQLite.Statement>();

function statement(sql: string): SQLite.Statement {
  const kept = statements.get(sql);
  if (kept) return kept;
  if (statements.size >= STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
  const prepared = database.prepare(sql);
  statements.set(sql, prepared);
  return prepared;
}

serveJobs<SqliteRequest, SqliteAnswer>((request) => {
  if ("exec" in request) {
    if (request.exec !== "ROLLBACK" || database.inTransaction) database.exec(request.exec);
    return { rows: [] };
  }
  const prepared = statement(request.sql);
  if (prepared.reader) return { rows: prepared.all(request.parameters) };
  const { changes, lastInsertRowid } = prepared.run(request.parameters);
  return { changes, lastInsertRowid };
});
