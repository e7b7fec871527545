import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export type RawOutcome =
  | { kind: "complete"; status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | { kind: "error"; code: string };

/** How long the body may take to finish writing once the response has ended before it counts as stalled. */
const WRITE_GRACE_MS = 5_000;

type RawRequest = { method: string; headers?: Record<string, string>; body?: Buffer };

/**
 * One request through node:http that writes its whole body whatever the server does meanwhile,
 * and reports either the complete response or the socket error (ECONNRESET, EPIPE) that cut it.
 * A response that ends while the server stops reading the rest of the body is "STALLED".
 * A fresh connection each time, so one request's fate never leaks into the next.
 */
export function sendWholeBody(url: string, { method, headers = {}, body }: RawRequest): Promise<RawOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = httpRequest(url, {
      method,
      agent: false,
      headers: { ...headers, ...(body ? { "content-length": String(body.length) } : {}) },
    });
    req.on("error", (error: NodeJS.ErrnoException) => settle({ kind: "error", code: error.code ?? error.message }));
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error: NodeJS.ErrnoException) =>
        settle({ kind: "error", code: error.code ?? error.message }),
      );
      response.on("aborted", () => settle({ kind: "error", code: "ECONNRESET" }));
      response.on("end", () => {
        const complete = () =>
          settle({
            kind: "complete",
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        if (req.writableFinished) return complete();
        const stalled = setTimeout(() => {
          settle({ kind: "error", code: "STALLED" });
          req.destroy();
        }, WRITE_GRACE_MS);
        req.once("finish", () => {
          clearTimeout(stalled);
          complete();
        });
      });
    });
    req.end(body);
  });
}

/** A multipart body of about `size` bytes: one text field and one file of filler bytes. */
export function multipartBody(size: number, boundary = "----akhbar-refusal"): { body: Buffer; contentType: string } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nعنوان\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = Buffer.alloc(Math.max(0, size - head.length - tail.length), 0x61);
  return { body: Buffer.concat([head, filler, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type StreamedOutcome = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytesSent: number;
  connectionClosed: boolean;
};

/**
 * POSTs a chunked body (no Content-Length) of `totalBytes`: `head`, then filler made as it is sent,
 * never held whole, then `tail`. Stops writing once the server has answered; resolves with the answer,
 * how much was sent, and whether the server closed the connection (within a few seconds of answering).
 */
export function sendStreamedBody(
  url: string,
  {
    method = "POST",
    headers = {},
    head,
    tail,
    totalBytes,
  }: { method?: string; headers?: Record<string, string>; head: Buffer; tail: Buffer; totalBytes: number },
): Promise<StreamedOutcome> {
  return new Promise((resolve, reject) => {
    const filler = Buffer.alloc(64 * 1024, 0x61);
    let sent = head.length;
    let answered = false;
    const req = httpRequest(url, { method, agent: false, headers: { ...headers, "transfer-encoding": "chunked" } });
    const write = () => {
      while (!answered && !req.destroyed) {
        const left = totalBytes - sent - tail.length;
        if (left <= 0) return void req.end(tail);
        const chunk = left < filler.length ? filler.subarray(0, left) : filler;
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
    };
    // Once answered, the server may close while bytes are still on their way: that is no failure.
    req.on("error", (error) => answered || reject(new Error(`${method} ${url} after ${sent} bytes: ${error.message}`)));
    req.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", () => undefined);
      response.on("end", () => {
        const socket = req.socket;
        const done = (connectionClosed: boolean) => {
          clearTimeout(timer);
          req.destroy();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            bytesSent: sent,
            connectionClosed,
          });
        };
        const timer = setTimeout(() => done(false), 5_000);
        if (!socket || socket.destroyed || socket.readableEnded) return done(true);
        socket.once("close", () => done(true)).once("end", () => done(true));
      });
    });
    req.write(head);
    write();
  });
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Sends `head` (a request line and headers, as written: absolute-form targets, HTTP/1.0 without
 * Host) on a fresh connection and reads the answer until the server closes it.
 */
export function sendRawHead(url: string, head: string): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [top = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = top.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: rest.join("\r\n\r\n") });
    });
  });
}
