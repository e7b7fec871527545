import { request, type IncomingHttpHeaders } from "node:http";
import { createSseParser, type SseMessage } from "./sse";

/** One connection of a reader: how it was answered, and the messages it carried. */
export type EventSourceConnection = {
  status: number;
  headers: IncomingHttpHeaders;
  /** The Last-Event-ID header it was opened with (none on the first). */
  lastEventId: string | undefined;
  /** This side's port of its TCP connection: /proc tells which server process holds the other end. */
  localPort: number;
  messages: SseMessage[];
};

export type EventSourceOptions = {
  /**
   * What happens after a connection ends and before the next is opened. A browser waits the server's
   * `retry:` hint there; a test does what it wants to happen while the reader is away, then lets it on.
   */
  beforeReconnect?: () => Promise<void>;
};

export type EventSourceReader = {
  /** Every connection so far, the current one last. */
  connections: EventSourceConnection[];
  /** Every message of every connection, in arrival order. */
  messages: SseMessage[];
  /** What went wrong: a reconnect refused or answered other than 200, a failing `beforeReconnect`. */
  problems: string[];
  /** Resolves once `done()` holds (checked at each message and connection), or fails after `timeoutMs` saying what came. */
  waitUntil: (what: string, done: () => boolean, timeoutMs?: number) => Promise<void>;
  close: () => void;
};

/**
 * A reader of `url` as the browser's EventSource reads it: when the stream ends or is cut, it connects
 * again (a new TCP connection) with `Last-Event-ID` set to the last id it received. Resolves once
 * the first connection is answered 200; a reconnect that is refused or not answered 200 stops it,
 * as it stops an EventSource.
 */
export async function openEventSource(
  url: string,
  { beforeReconnect = async () => {} }: EventSourceOptions = {},
): Promise<EventSourceReader> {
  const connections: EventSourceConnection[] = [];
  const messages: SseMessage[] = [];
  const problems: string[] = [];
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((check) => check());
  let lastEventId: string | undefined;
  let closed = false;
  let current: ReturnType<typeof request> | undefined;

  const connect = () =>
    new Promise<void>((answered, failed) => {
      const sent = lastEventId;
      const req = request(url, {
        agent: false,
        headers: { accept: "text/event-stream", ...(sent === undefined ? {} : { "last-event-id": sent }) },
      });
      current = req;
      let answer = false;
      req.on("error", (error) => {
        if (answer) return; // a cut stream: its response closes too, handled there
        problems.push(`connecting with Last-Event-ID ${sent}: ${error.message}`);
        changed();
        failed(error);
      });
      req.once("response", (response) => {
        answer = true;
        const connection: EventSourceConnection = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          lastEventId: sent,
          localPort: req.socket?.localPort ?? 0,
          messages: [],
        };
        connections.push(connection);
        changed();
        if (connection.status !== 200) {
          problems.push(`answered ${connection.status} with Last-Event-ID ${sent}`);
          closed = true;
          response.resume();
          return failed(new Error(`${url} answered ${connection.status}`));
        }
        response.setEncoding("utf8");
        response.on(
          "data",
          createSseParser(({ id, data }) => {
            if (id !== undefined) lastEventId = id;
            if (data === undefined) return;
            const message = { id, data: JSON.parse(data) as unknown };
            connection.messages.push(message);
            messages.push(message);
            changed();
          }),
        );
        response.on("error", () => {}); // a cut stream also ends with "close", handled there
        response.once("close", () => {
          if (!closed) void reconnect();
        });
        answered();
      });
      req.end();
    });

  const reconnect = async () => {
    try {
      await beforeReconnect();
    } catch (error) {
      problems.push(`before reconnecting: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (closed) return;
    await connect().catch(() => (closed = true));
  };

  await connect();
  return {
    problems,
    connections,
    messages,
    waitUntil: (what, done, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done()) return;
          waiters.delete(check);
          clearTimeout(timeout);
          resolve();
        };
        const timeout = setTimeout(() => {
          waiters.delete(check);
          const seen = connections.map((c) => ({ status: c.status, lastEventId: c.lastEventId, messages: c.messages }));
          reject(
            new Error(
              `${what}: not within ${timeoutMs} ms. Connections: ${JSON.stringify(seen)}; problems: ${JSON.stringify(problems)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => {
      closed = true;
      current?.destroy();
    },
  };
}
