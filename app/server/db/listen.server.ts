import pg from "pg";

/** What a PostgreSQL LISTEN connection reports. */
export type ListenHandlers = {
  /** A notification arrived on the channel. */
  notified: () => void;
  /** LISTEN is in place (again): notifications sent before now may have been missed. */
  listening: () => void;
  /** The connection failed or broke; a new one follows by itself. */
  lost: (error: unknown) => void;
};

const RETRY_MS = { first: 250, max: 5_000 };

/**
 * Keeps one connection to the PostgreSQL database at `databaseUrl` listening on `channel`, outside the
 * query pool (a pooled connection would lose its LISTEN when the pool lets it go). When the connection
 * breaks (the server restarts, an administrator ends the backend) it reconnects with growing pauses.
 */
export function listenOnPostgres(
  databaseUrl: string,
  channel: string,
  handlers: ListenHandlers,
): { close: () => Promise<void> } {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = RETRY_MS.first;

  const connect = async () => {
    const current = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    client = current;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed || closed) return;
      failed = true;
      handlers.lost(error);
      current.end().catch(() => {});
      retry = setTimeout(() => void connect(), pause);
      pause = Math.min(pause * 2, RETRY_MS.max);
    };
    current.on("error", fail);
    current.on("end", () => fail(new Error("the LISTEN connection ended")));
    current.on("notification", (message) => {
      if (message.channel === channel) handlers.notified();
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) return void (await current.end().catch(() => {}));
      pause = RETRY_MS.first;
      handlers.listening();
    } catch (error) {
      fail(error);
    }
  };
  void connect();

  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
