/**
 * bench:views' control (`--bare`), in a process of its own: `tsx scripts/bench/view-sink.ts PORT` answers
 * every request with 200 and `{"ok":true}` and does nothing else: what a load of views costs the
 * machine's pages before any server counts one.
 */
import http from "node:http";

const port = Number(process.argv[2]);
const ACCEPTED = Buffer.from(JSON.stringify({ ok: true }));
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () =>
    res
      .writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
      .end(ACCEPTED),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => process.exit(0));
