/**
 * The benchmark's ceiling, in a process of its own: a bare node:http server sending one page's bytes
 * (gzipped once) from memory. Usage: scripts/bench/ceiling.ts <html file> <port>; prints "ready" when listening.
 */
import http from "node:http";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const [file, port] = process.argv.slice(2);
const body = gzipSync(readFileSync(file!));
const server = http.createServer((_req, res) => {
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-encoding": "gzip",
    "content-length": body.length,
  });
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
