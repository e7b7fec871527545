import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { ThreadPool } from "~/server/platform/thread-pool.server";
import { LOCK_WAIT_MS } from "./faults.server";

/** What the thread is asked: a statement with its parameters, or a transaction's BEGIN, COMMIT or ROLLBACK. */
export type SqliteRequest = { sql: string; parameters: readonly unknown[] } | { exec: string };
export type SqliteAnswer = { rows: unknown[] } | { changes: number; lastInsertRowid: number | bigint };
/** `pragmas`: what the connection sets, as the site's own does (dialect.server.ts). */
export type SqliteThreadSettings = { file: string; pragmas: readonly string[]; lockWaitMs: number };

class ThreadConnection implements DatabaseConnection {
  constructor(private readonly driver: SqliteThreadDriver) {}

  async executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const answer = await this.driver.ask({ sql, parameters });
    if ("rows" in answer) return { rows: answer.rows as R[] };
    return { numAffectedRows: BigInt(answer.changes), insertId: BigInt(answer.lastInsertRowid), rows: [] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the SQLite thread does not stream");
  }
}

/**
 * A Kysely driver whose statements run on a connection of their own in a thread (sqlite.thread.server.ts):
 * SQLite's work, and its wait for the write lock, happen there while the event loop goes on serving pages
 * (decision 041). One connection: a transaction, or a statement outside one, has it to itself until it is
 * done. A thread error comes with SQLite's code, so faults.server.ts reads it as it reads the main connection's.
 */
export class SqliteThreadDriver implements Driver {
  private readonly pool: ThreadPool<SqliteRequest, SqliteAnswer>;
  private held: Promise<void> = Promise.resolve();
  /** The thread the open transaction began on: were it to stop, the transaction's next statements must not run on another. */
  private transactionOn: number | undefined;

  constructor(file: string, pragmas: readonly string[]) {
    const settings: SqliteThreadSettings = { file, pragmas, lockWaitMs: LOCK_WAIT_MS };
    this.pool = new ThreadPool({ thread: "db/sqlite", size: 1, workerData: settings });
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.held;
    let release = () => {};
    this.held = new Promise((resolve) => (release = resolve));
    await previous;
    return Object.assign(new ThreadConnection(this), { release });
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as ThreadConnection & { release: () => void }).release();
  }

  async beginTransaction(): Promise<void> {
    await this.ask({ exec: "BEGIN IMMEDIATE" });
    this.transactionOn = this.pool.running();
  }

  async commitTransaction(): Promise<void> {
    await this.ask({ exec: "COMMIT" });
    this.transactionOn = undefined;
  }

  async rollbackTransaction(): Promise<void> {
    this.transactionOn = undefined;
    await this.ask({ exec: "ROLLBACK" });
  }

  async destroy(): Promise<void> {
    await this.held;
    await this.pool.close();
  }

  ask(request: SqliteRequest): Promise<SqliteAnswer> {
    if (this.transactionOn !== undefined && this.transactionOn !== this.pool.running())
      return Promise.reject(new Error("the SQLite thread stopped during the transaction"));
    return this.pool.run(request);
  }
}
