import type { Database as SqliteDatabase, Statement } from "better-sqlite3";
import { CompiledQuery, SelectQueryNode, type DatabaseConnection, type Driver, type QueryResult } from "kysely";
import { BoundedCache } from "~/lib/bounded-cache";
import { databaseBusy, isSqliteBusy, LOCK_WAIT_MS } from "./faults.server";

const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 100;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (synchronous SQLite work), and while SQLite answers SQLITE_BUSY, tries again after
 * a growing pause, on timers, so the event loop keeps serving everything else meanwhile.
 */
async function retryWhileBusy<T>(attempt: () => T | Promise<T>, deadline: number): Promise<T> {
  for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      if (Date.now() + backoff > deadline) throw databaseBusy();
      await pause(backoff * (0.5 + Math.random()));
    }
  }
}

/** How many prepared statements one database keeps: the site runs far fewer distinct SQL texts. */
const STATEMENT_CACHE_SIZE = 500;

function run(driver: NonBlockingSqliteDriver, { sql, parameters }: CompiledQuery): QueryResult<unknown> {
  const statement = driver.statement(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class Connection implements DatabaseConnection {
  /** Set while this connection's transaction is open. */
  endTransaction: (() => void) | undefined;

  constructor(private readonly driver: NonBlockingSqliteDriver) {}

  /**
   * Runs `work` once no other request's transaction is open on the one connection. The check and the
   * work happen in the same tick, so no transaction can begin between them.
   */
  private async outsideOtherTransactions<T>(work: () => T): Promise<T> {
    for (let open = this.driver.openTransaction; open && !this.endTransaction; open = this.driver.openTransaction)
      await open;
    return work();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    return (await retryWhileBusy(
      () => this.outsideOtherTransactions(() => run(this.driver, query)),
      deadline,
    )) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error("SQLite streams only select queries");
    const rows = await this.outsideOtherTransactions(() => this.driver.statement(query.sql).all(query.parameters));
    for (const row of rows) yield { rows: [row as R] };
  }
}

/**
 * Kysely's SQLite driver, minus its two ways of stalling the server: better-sqlite3 would wait for
 * another process's write lock inside the call (busy_timeout, blocking the event loop), and one
 * connection-wide mutex would make every read queue behind a write that waits. Here busy_timeout is
 * 0 and a busy statement is retried on timers; transactions take the write lock up front
 * (BEGIN IMMEDIATE) and only while one is open do other statements wait, as they must on the one
 * connection. A lock not had by the deadline gives databaseBusy().
 */
export class NonBlockingSqliteDriver implements Driver {
  /** Pending while a transaction is open; statements from outside it wait for it. */
  openTransaction: Promise<void> | undefined;
  private transactionQueue: Promise<void> = Promise.resolve();
  /** Prepared statements by their SQL text: the site runs a few dozen, each prepared once (docs/decisions/013). */
  readonly statements: BoundedCache<string, Statement>;
  private readonly prepare = (sql: string) => this.database.prepare(sql);

  constructor(
    readonly database: SqliteDatabase,
    maxStatements = STATEMENT_CACHE_SIZE,
  ) {
    this.statements = new BoundedCache({ maxEntries: maxStatements });
  }

  statement(sql: string): Statement {
    return this.statements.get(sql, this.prepare);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Connection(this);
  }

  async beginTransaction(connection: Connection): Promise<void> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    // One transaction at a time on the one connection: wait for the previous one to end.
    const previous = this.transactionQueue;
    let leaveQueue = () => {};
    this.transactionQueue = new Promise((resolve) => (leaveQueue = resolve));
    await previous;
    try {
      await retryWhileBusy(() => {
        this.database.exec("BEGIN IMMEDIATE");
        // Marked open in the same tick as the BEGIN, before any other statement can run.
        this.openTransaction = new Promise((resolve) => {
          connection.endTransaction = () => {
            connection.endTransaction = undefined;
            this.openTransaction = undefined;
            leaveQueue();
            resolve();
          };
        });
      }, deadline);
    } catch (error) {
      leaveQueue();
      throw error;
    }
  }

  async commitTransaction(connection: Connection): Promise<void> {
    this.database.exec("COMMIT");
    connection.endTransaction?.();
  }

  async rollbackTransaction(connection: Connection): Promise<void> {
    if (!connection.endTransaction) return;
    try {
      if (this.database.inTransaction) this.database.exec("ROLLBACK");
    } finally {
      connection.endTransaction();
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    while (this.openTransaction) await this.openTransaction;
    this.database.close();
  }
}
