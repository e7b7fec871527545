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
export function listenOrExit(
  app: http.RequestListener,
  port: number,
  host: string,
  onListening: () => void,
): http.Server {
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

/** The responses a server has not finished yet, which a stop lets finish. */
export type RequestsInFlight = {
  listener: http.RequestListener;
  responses: Set<http.ServerResponse>;
  stopping: boolean;
  onSettled: () => void;
};

/**
 * `app` as the server's listener, counting the responses it leaves unfinished when it returns; one it
 * finished at once (a cache hit) is never counted. While stopping, every response says Connection: close.
 */
export function requestsInFlight(app: http.RequestListener): RequestsInFlight {
  const tracked: RequestsInFlight = {
    responses: new Set(),
    stopping: false,
    onSettled: () => {},
    listener: (request, response) => {
      if (tracked.stopping) response.setHeader("Connection", "close");
      app(request, response);
      if (response.writableEnded) {
        if (tracked.stopping) tracked.onSettled();
        return;
      }
      tracked.responses.add(response);
      response.on("close", settled);
    },
  };
  // One function for every response (a response closes once).
  function settled(this: http.ServerResponse) {
    tracked.responses.delete(this);
    if (tracked.stopping) tracked.onSettled();
  }
  return tracked;
}

/**
 * On SIGTERM or SIGINT: stop accepting connections, end event streams, stop following the outbox, let
 * requests in flight finish (cut after `graceMs`: SHUTDOWN_GRACE_SECONDS), close the database, exit 0.
 */
export function shutDownOnSignals(
  server: http.Server,
  requests: RequestsInFlight,
  graceMs: number,
  hooks: ShutdownHooks | undefined,
): void {
  const inFlight = requests.responses;
  // A finished request leaves its keep-alive connection idle; while stopping, idle ones are closed.
  requests.onSettled = () => setImmediate(() => server.closeIdleConnections());

  onStopSignal(async (signal) => {
    requests.stopping = true;
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
