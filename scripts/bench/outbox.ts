/**
 * npm run bench:outbox: how long a change made through one connection takes to reach the outbox
 * follower of another (as between two server processes), and what an article write with its event
 * costs. Writes are spaced at random so they land anywhere in the follower's polling interval.
 * Usage: npm run bench:outbox -- [writes] [--database postgres://…]
 * The database is a temporary SQLite file, or with `--database` (or DATABASE_URL) naming a PostgreSQL
 * server, a database created on it for the run and dropped after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../app/server/db/db.server";
import { isPostgresUrl } from "../../app/server/platform/database-url.server";
import { migrateToLatest } from "../../app/server/data/migrate.server";
import { createArticle } from "../../app/server/news/articles-write.server";
import { createOutboxFollower } from "../../app/server/outbox/follower.server";
import { createPostgresDatabase } from "../../harness/postgres";
import { seededRandom } from "../../harness/seeded-random";

const { values: options, positionals } = parseArgs({
  options: { database: { type: "string" } },
  allowPositionals: true,
});
const WRITES = Number(positionals[0] ?? 60);
const SERVER_URL = options.database ?? process.env.DATABASE_URL;
const MAX_GAP_MS = 600;

const random = seededRandom(20_261_122);
const postgres =
  SERVER_URL && isPostgresUrl(SERVER_URL)
    ? await createPostgresDatabase("akhbar_bench_outbox_", SERVER_URL)
    : undefined;
const dir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-outbox-"));
const url = postgres?.url ?? path.join(dir, "bench.db");
const writer = openDatabase(url);
const reader = openDatabase(url);

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;
const row = (name: string, values: number[]) =>
  `| ${name} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`;

try {
  await migrateToLatest(writer);
  const committedAt = new Map<string, number>();
  const delivery: number[] = [];
  let delivered!: () => void;
  let waiting = WRITES;
  const allDelivered = new Promise<void>((resolve) => (delivered = resolve));
  const follower = createOutboxFollower(reader, url, (events) => {
    const now = performance.now();
    for (const event of events) {
      const at = committedAt.get(event.articleId ?? "");
      if (at !== undefined) delivery.push(now - at);
      if (--waiting === 0) delivered();
    }
  });
  await follower.start();

  const writeMs: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    await new Promise((resolve) => setTimeout(resolve, random() * MAX_GAP_MS));
    const start = performance.now();
    const { id } = await createArticle(writer, { title: `عاجل ${i}`, content: "نص الخبر", category: "breaking" });
    const end = performance.now();
    committedAt.set(id, end);
    writeMs.push(end - start);
  }
  await allDelivered;
  await follower.stop();

  console.log(`\n${WRITES} article writes on ${postgres ? "PostgreSQL" : "SQLite"}, spaced 0–${MAX_GAP_MS} ms apart\n`);
  console.log("| ms | p50 | p95 | max |\n|---|---|---|---|");
  console.log(row("write (article, short link, search entry, event)", writeMs));
  console.log(row("commit → the other connection's follower has it", delivery));
} finally {
  await writer.destroy();
  await reader.destroy();
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
}
