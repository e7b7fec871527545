/**
 * The readers of npm run bench:live, in a process of their own: opens `count` Server-Sent Events
 * streams on one story and records, per update, when each reader received it. Driven by messages
 * from scripts/bench/live.ts: "open", then "move" (some readers hang up and reconnect to another
 * instance with Last-Event-ID), then "report".
 */
import http from "node:http";

type Open = { type: "open"; url: string; count: number };
type Move = { type: "move"; url: string; count: number };
type Command = Open | Move | { type: "report"; updates: number };

/** What one reader received: update sequence number → times received; its last event id. */
type Reader = { seen: Map<number, number>; lastId: string; request: http.ClientRequest | null };

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const readers: Reader[] = [];
const latencies: number[] = [];
/** Per update: the first and the last reader's latency, to tell the post's own time from the fan-out's. */
const spread = new Map<number, { first: number; last: number }>();
let refused = 0;

/** Posted updates say `#<seq>@<epoch ms>`: the time the driver sent the POST. */
const STAMP = /#(\d+)@(\d+)/;

function connect(reader: Reader, url: string, lastId: string | null): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers: lastId ? { "Last-Event-ID": lastId } : {} }, (response) => {
      if (response.statusCode !== 200) {
        refused++;
        response.resume();
        return resolve();
      }
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          if (id) reader.lastId = id;
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!data || !data.includes('"posted"')) continue;
          const stamp = STAMP.exec(data);
          if (!stamp) continue;
          const seq = Number(stamp[1]);
          reader.seen.set(seq, (reader.seen.get(seq) ?? 0) + 1);
          const latency = Date.now() - Number(stamp[2]);
          latencies.push(latency);
          const range = spread.get(seq);
          if (!range) spread.set(seq, { first: latency, last: latency });
          else range.last = Math.max(range.last, latency);
        }
      });
      resolve();
    });
    request.on("error", () => resolve());
    reader.request = request;
  });
}

function median(values: number[]): number {
  values.sort((x, y) => x - y);
  return values[Math.floor(values.length / 2)] ?? 0;
}

async function inBatches(count: number, work: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += 250)
    await Promise.all(Array.from({ length: Math.min(250, count - start) }, (_, i) => work(start + i)));
}

process.on("message", async (command: Command) => {
  if (command.type === "open") {
    await inBatches(command.count, async () => {
      const reader: Reader = { seen: new Map(), lastId: "", request: null };
      readers.push(reader);
      await connect(reader, command.url, null);
    });
    process.send!({ type: "opened", open: readers.length - refused, refused });
  } else if (command.type === "move") {
    // The first `count` readers hang up and come back on the other instance, from the last id they saw.
    await inBatches(command.count, async (i) => {
      const reader = readers[i]!;
      reader.request?.destroy();
      await connect(reader, command.url, reader.lastId);
    });
    process.send!({ type: "moved" });
  } else {
    latencies.sort((x, y) => x - y);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    const counts = readers.map((reader) => reader.seen);
    process.send!({
      type: "report",
      readers: readers.length,
      refused,
      received: latencies.length,
      everyOnce: counts.filter((seen) => seen.size === command.updates && [...seen.values()].every((n) => n === 1))
        .length,
      duplicates: counts.reduce((sum, seen) => sum + [...seen.values()].filter((n) => n > 1).length, 0),
      firstMedian: median([...spread.values()].map((r) => r.first)),
      fanOutMedian: median([...spread.values()].map((r) => r.last - r.first)),
      p50: at(0.5),
      p99: at(0.99),
      max: latencies.at(-1) ?? 0,
    });
    readers.forEach((reader) => reader.request?.destroy());
  }
});
