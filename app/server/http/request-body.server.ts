import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How much of an unread request body is read and dropped so that an early answer arrives whole. */
const DISCARD_LIMITS = { bytes: 16 * 1024 * 1024, ms: 10_000 };
/** How long a connection closed after its answer still reads what the client sends (lingering close). */
const LINGER_MS = 2_000;

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Reads the rest of the body and drops it, detaching whoever was reading it before (React Router's
 * body stream). True when the body ended within the limits.
 */
const discarding = new WeakMap<IncomingMessage, Promise<boolean>>();

function discardRest(req: IncomingMessage, limits: typeof DISCARD_LIMITS): Promise<boolean> {
  let discarded = discarding.get(req);
  if (!discarded) discarding.set(req, (discarded = startDiscarding(req, limits)));
  return discarded;
}

function startDiscarding(req: IncomingMessage, limits: typeof DISCARD_LIMITS): Promise<boolean> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve(req.complete);
    let read = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      req.off("data", count).off("end", ended).off("close", closed);
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.bytes) done(false);
    };
    const ended = () => done(true);
    const closed = () => done(req.complete);
    const timer = setTimeout(() => done(false), limits.ms);
    req.removeAllListeners("data");
    req.on("data", count).once("end", ended).once("close", closed);
    req.resume();
  });
}

/**
 * Closes the connection once the answer has gone out, as Node would, but first sends FIN and goes on
 * reading (and dropping) for LINGER_MS: closed with unread bytes, the kernel would send a reset that
 * can destroy the answer before the client has read it.
 */
function closeLingering(socket: Socket): void {
  socket.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
    socket.end();
  };
}

/**
 * Every answer reaches the client whole, refusals included. A refusal is usually sent before the
 * body has been read, and a socket closed with unread bytes makes the kernel send a reset that
 * destroys the answer on its way. So the end of a response waits until the rest of the body has been
 * read and dropped (up to DISCARD_LIMITS; past them the answer still goes out, then the connection
 * closes, lingering), and a route that gives up on the body (cancelling its stream) stops reading instead of
 * destroying the connection.
 */
export function settleRequestBody(limits = DISCARD_LIMITS) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!hasBody(req)) return next();
    const destroy = req.destroy.bind(req);
    req.destroy = (error?: Error) => {
      // Node destroys the socket with a request not read to its end, even one whose bytes have all arrived.
      if (req.readableEnded || req.socket.destroyed) return destroy(error);
      void discardRest(req, limits);
      return req;
    };
    // A head written while the body is unread waits for the first write or the end, which may yet have to
    // say Connection: close; from then on (Node's own implicit head included) it is written at once.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    let head: unknown[] | undefined;
    let holding = true;
    const writeHeadNow = () => {
      holding = false;
      if (head) writeHead(...head);
      head = undefined;
    };
    res.writeHead = ((...args: unknown[]) => {
      if (req.complete || !holding) return writeHead(...args);
      head = args;
      return res;
    }) as ServerResponse["writeHead"];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      writeHeadNow();
      return write(...args);
    }) as ServerResponse["write"];
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      if (req.complete) {
        writeHeadNow();
        return end(...args);
      }
      void discardRest(req, limits).then((whole) => {
        if (!whole) {
          if (!res.headersSent) res.setHeader("Connection", "close");
          closeLingering(req.socket);
        }
        writeHeadNow();
        end(...args);
      });
      return res;
    }) as ServerResponse["end"];
    next();
  };
}
