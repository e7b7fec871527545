import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";
import { connectionErrorOf, databaseErrorOf } from "./faults.server";

async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw databaseErrorOf(error);
  }
}

class FaultConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return translated(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw databaseErrorOf(error);
    }
  }
}

const innerOf = (connection: DatabaseConnection) => (connection as FaultConnection).inner;
type Compile = QueryCompiler["compileQuery"];

function unsupported(): never {
  throw new Error("this database driver has no savepoints");
}

/**
 * Either engine's driver, with every database fault a request can meet turned into its AppError
 * (faults.server.ts) at the one place all queries pass, for our code and better-auth's alike.
 */
class FaultTranslatingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return translated(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new FaultConnection(await this.inner.acquireConnection());
    } catch (error) {
      throw connectionErrorOf(error);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return translated(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return translated(() => (this.inner.savepoint ?? unsupported).call(this.inner, innerOf(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return translated(() =>
      (this.inner.rollbackToSavepoint ?? unsupported).call(this.inner, innerOf(connection), name, compile),
    );
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return translated(() =>
      (this.inner.releaseSavepoint ?? unsupported).call(this.inner, innerOf(connection), name, compile),
    );
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export function translatingFaults(driver: Driver): Driver {
  return new FaultTranslatingDriver(driver);
}
