import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { LOCK_WAIT_MS } from "./faults.server";

/** What the thread is asked: a statement with its parameters, or a transaction's BEGIN, COMMIT or ROLLBACK. */
type Request = { id: number; sql: string; parameters: readonly unknown[] } | { id: number; exec: string };
type Answer = { id: number; rows: unknown[] } | { id: number; changes: number; lastInsertRowid: number | bigint } | { id: number; error: { message: string; code?: string } };

/**
 * What the thread runs: its own connection to the file, which waits for the write lock inside the
 * thread (never in the event loop), and each statement prepared once.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.betterSqlite3);
const database = new SQLite(workerData.file);
for (const pragma of workerData.pragmas) database.pragma(pragma);
database.pragma("busy_timeout = " + workerData.lockWaitMs);
const statements = new Map();
function statement(sql) {
  let prepared = statements.get(sql);
  if (prepared) return prepared;
  if (statements.size >= 200) statements.delete(statements.keys().next().value);
  prepared = database.prepare(sql);
  statements.set(sql, prepared);
  return prepared;
}
parentPort.on("message", (request) => {
  try {
    if (request.exec !== undefined) {
      if (request.exec !== "ROLLBACK" || database.inTransaction) database.exec(request.exec);
      return parentPort.postMessage({ id: request.id, rows: [] });
    }
    const prepared = statement(request.sql);
    if (prepared.reader) return parentPort.postMessage({ id: request.id, rows: prepared.all(request.parameters) });
    const { changes, lastInsertRowid } = prepared.run(request.parameters);
    parentPort.postMessage({ id: request.id, changes, lastInsertRowid });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: { message: String((error && error.message) || error), code: error && error.code } });
  }
});
`;

type Pending = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

/** An error from the thread, with SQLite's code, so faults.server.ts reads it as it reads the main connection's. */
function errorOf({ message, code }: { message: string; code?: string }): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

class ThreadConnection implements DatabaseConnection {
  constructor(private readonly driver: SqliteThreadDriver) {}

  async executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const answer = await this.driver.ask({ sql, parameters });
    if ("rows" in answer) return { rows: answer.rows as R[] };
    if ("changes" in answer) return { numAffectedRows: BigInt(answer.changes), insertId: BigInt(answer.lastInsertRowid), rows: [] };
    throw errorOf(answer.error);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the SQLite thread does not stream");
  }
}

/**
 * A Kysely driver whose statements run on a connection of their own in a worker thread: SQLite's work,
 * and its wait for the write lock, happen there while the event loop goes on serving pages (decision
 * 041). One connection: a transaction, or a statement outside one, has it to itself until it is done.
 */
export class SqliteThreadDriver implements Driver {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private lastId = 0;
  private held: Promise<void> = Promise.resolve();
  /** The thread the open transaction began on: were it to stop, the transaction's next statements must not run on another. */
  private transactionOn: Worker | undefined;

  /** `pragmas`: what the connection sets, as the site's own does (dialect.server.ts). */
  constructor(
    private readonly file: string,
    private readonly pragmas: readonly string[],
  ) {}

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
    await this.exec("BEGIN IMMEDIATE");
    this.transactionOn = this.worker;
  }

  async commitTransaction(): Promise<void> {
    await this.exec("COMMIT");
    this.transactionOn = undefined;
  }

  async rollbackTransaction(): Promise<void> {
    this.transactionOn = undefined;
    await this.exec("ROLLBACK");
  }

  async destroy(): Promise<void> {
    await this.held;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private async exec(sql: string): Promise<void> {
    const answer = await this.ask({ exec: sql });
    if ("error" in answer) throw errorOf(answer.error);
  }

  ask(request: { sql: string; parameters: readonly unknown[] } | { exec: string }): Promise<Answer> {
    if (this.transactionOn && this.transactionOn !== this.worker) return Promise.reject(new Error("the SQLite thread stopped during the transaction"));
    const id = ++this.lastId;
    const message: Request = { id, ...request };
    const worker = (this.worker ??= this.start());
    // The thread keeps the process alive only while it owes an answer.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(message);
    });
  }

  private start(): Worker {
    const betterSqlite3 = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file: this.file, pragmas: this.pragmas, betterSqlite3, lockWaitMs: LOCK_WAIT_MS } });
    worker.on("message", (answer: Answer) => {
      const pending = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      pending?.resolve(answer);
    });
    // A thread that stops refuses what it held; the next statement starts another.
    const stopped = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on("error", stopped);
    worker.on("exit", (code) => stopped(new Error(`the SQLite thread stopped (exit code ${code})`)));
    return worker;
  }
}
