import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { connect, type Socket } from "node:net";
import type { TestServer } from "../../harness/test-server";

/*
 * Which worker of a WORKERS > 1 test server holds a connection, and requests sent to a chosen worker.
 * The workers take connections from the socket they share (decision 012); Linux /proc tells which one did.
 */

/** The inode of the server's end of the TCP connection between 127.0.0.1:`serverPort` and the client's `clientPort`, or null. */
function serverSocketInode(serverPort: number, clientPort: number): string | null {
  const hexPort = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    const fields = line.trim().split(/\s+/);
    const [, local, remote] = fields;
    const inode = fields[9];
    if (local?.endsWith(hexPort(serverPort)) && remote?.endsWith(hexPort(clientPort)) && inode && inode !== "0")
      return inode;
  }
  return null;
}

function holdsSocket(pid: number, inode: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // the process has exited
  }
}

/** The pid of the worker of `server` holding the connection made from this machine's port `clientPort`, once the primary has handed it over. */
export async function workerHolding(server: TestServer, clientPort: number, timeoutMs = 5_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const inode = serverSocketInode(Number(server.env.PORT), clientPort);
    const holder = inode === null ? undefined : server.workerPids().find((pid) => holdsSocket(pid, inode));
    if (holder !== undefined) return holder;
    if (Date.now() > deadline)
      throw new Error(
        `no worker of ${server.url} holds the connection from port ${clientPort} (workers: ${server.workerPids().join(", ")})`,
      );
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A connection to `server` that worker `pid` holds: new connections until one lands there. */
async function connectionToWorker(server: TestServer, pid: number): Promise<Socket> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const socket = connect({ host: "127.0.0.1", port: Number(server.env.PORT) });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    if ((await workerHolding(server, socket.localPort ?? 0)) === pid) return socket;
    socket.destroy();
  }
  throw new Error(
    `20 connections to ${server.url} and none went to worker ${pid} (workers: ${server.workerPids().join(", ")})`,
  );
}

export type WorkerAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One request to `path` of `server`, answered by its worker `pid`, on a connection of its own. */
export async function requestOnWorker(
  server: TestServer,
  pid: number,
  path: string,
  { method = "GET", headers = {}, form }: { method?: string; headers?: Record<string, string>; form?: FormData } = {},
): Promise<WorkerAnswer> {
  const encoded = form ? new Response(form) : undefined;
  const body = encoded ? Buffer.from(await encoded.arrayBuffer()) : undefined;
  const bodyHeaders: Record<string, string> =
    encoded && body
      ? { "content-type": encoded.headers.get("content-type") ?? "", "content-length": String(body.length) }
      : {};
  const socket = await connectionToWorker(server, pid);
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${path}`,
      { method, createConnection: () => socket, headers: { connection: "close", ...bodyHeaders, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** An event stream of `server` held open by its worker `pid`: its status, and a way to hang up. */
export type HeldStream = { status: number; close: () => void };

/** Opens the event stream at `path` of `server` on a connection its worker `pid` holds, and keeps it open. */
export async function streamOnWorker(
  server: TestServer,
  pid: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<HeldStream> {
  const socket = await connectionToWorker(server, pid);
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { createConnection: () => socket, headers }, (response) => {
      response.resume();
      response.on("error", () => {}); // hung up by close()
      resolve({ status: response.statusCode ?? 0, close: () => socket.destroy() });
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Waits until the primary of `server` has replaced its dead worker `victim` and the replacement serves,
 * and returns the replacement's pid.
 */
export async function replacementOf(server: TestServer, victim: number, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const output = server.output();
    const replacement = output.includes(`worker ${victim} died`)
      ? /worker (\d+) is serving; workers now: (.*)/.exec(output.slice(output.indexOf(`worker ${victim} died`)))
      : null;
    if (replacement) return Number(replacement[1]);
    if (Date.now() > deadline) throw new Error(`worker ${victim} of ${server.url} was not replaced:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
