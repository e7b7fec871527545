import http from "node:http";
import { ConfigurationError } from "~/server/platform/config.server";
import { logger } from "~/server/platform/logger.server";

/** What the app bundle must let go of when the server stops. */
export type ShutdownHooks = {
  /** Ends every open event stream with a retry hint. */
  endStreams: () => void;
  /** Stops following the outbox (readiness turns to 503) and closes its LISTEN connection. */
  stopFollowing: () => Promise<void>;
  closeDatabase: () => Promise<void>;
};

/**
 * How long an idle keep-alive connection stays open: longer than a proxy keeps its connections to
 * us (deploy/nginx.conf: 60 s) or a client its own (undici: 4 s), so they close an idle one first
 * and never send a request on a connection this server is closing (Node's default is 5 s).
 */
export const KEEP_ALIVE_MS = 65_000;

/** Runs what the server needs before it listens; a ConfigurationError is printed as it is, with status 1. */
export async function prepareOrExit<T>(prepare: () => Promise<T>): Promise<T> {
  try {
    return await prepare();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** Listens, or explains why it cannot and exits with status 1. */
export function listenOrExit(app: http.RequestListener, port: number, host: string, onListening: () => void): http.Server {
  const server = http.createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.once("error", (error: NodeJS.ErrnoException) => {
    const reasons: Record<string, string> = {
      EADDRINUSE: `Port ${port} on ${host} is already in use, probably by another server. Stop it, or start on another port: PORT=${port + 1} npm start`,
      EACCES: `Not allowed to listen on port ${port} on ${host}. Choose a port above 1023: PORT=3000 npm start`,
      EADDRNOTAVAIL: `${host} is not an address of this machine. Set HOST to one of its addresses, e.g. HOST=127.0.0.1`,
    };
    console.error(reasons[error.code ?? ""] ?? `Cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, host, onListening);
  return server;
}

/**
 * Calls `stop` on the first SIGTERM or SIGINT and keeps listening to both: systemd and a terminal signal
 * the whole process group, and npm, tsx and the cluster primary pass the signal on, so a process often
 * gets it twice, and a signal no one listens to would kill it mid-stop.
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): void {
  let signalled = false;
  const first = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    stop(signal);
  };
  process.on("SIGTERM", first);
  process.on("SIGINT", first);
}

/**
 * On SIGTERM or SIGINT: stop accepting connections, end event streams, stop following the outbox, let
 * requests in flight finish (cut after `graceMs`: SHUTDOWN_GRACE_SECONDS), close the database, exit 0.
 */
export function shutDownOnSignals(server: http.Server, graceMs: number, hooks: ShutdownHooks | undefined): void {
  const inFlight = new Set<http.ServerResponse>();
  let stopping = false;
  // One function for every response (a response closes once): a cache hit allocates no listener of its own.
  function settled(this: http.ServerResponse) {
    inFlight.delete(this);
    // A finished request leaves its keep-alive connection idle; while stopping, idle ones are closed.
    if (stopping) setImmediate(() => server.closeIdleConnections());
  }
  // Before the app's own listener, so the header is set before anything is sent.
  server.prependListener("request", (_request: http.IncomingMessage, response: http.ServerResponse) => {
    if (stopping) response.setHeader("Connection", "close");
    inFlight.add(response);
    response.on("close", settled);
  });

  onStopSignal(async (signal) => {
    stopping = true;
    logger.info(`${signal}: finishing ${inFlight.size} request(s) in flight, then stopping`);
    for (const response of inFlight) if (!response.headersSent) response.setHeader("Connection", "close");
    const closed = new Promise((resolve) => server.close(resolve));
    hooks?.endStreams();
    const followingStopped = hooks?.stopFollowing();
    const cut = setTimeout(() => {
      logger.warn(`${inFlight.size} request(s) still running after ${graceMs / 1000} s: closing their connections`);
      server.closeAllConnections();
    }, graceMs);
    await closed;
    clearTimeout(cut);
    await followingStopped;
    await hooks?.closeDatabase();
    logger.info("stopped");
    process.exit(0);
  });
}
