/**
 * The benchmark's ceiling, in a process of its own: a bare node:http server sending one response, as
 * our server sent it (its status, headers and encoded body), from memory. Usage: scripts/bench/ceiling.ts
 * <response.json from load.ts's startCeiling> <port>; prints "ready" when listening.
 */
import http from "node:http";
import { readFileSync } from "node:fs";

const [file, port] = process.argv.slice(2);
const stored = JSON.parse(readFileSync(file!, "utf8")) as {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
};
const body = Buffer.from(stored.body, "base64");
const server = http.createServer((_req, res) => {
  res.writeHead(stored.status, stored.headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
