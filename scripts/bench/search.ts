/**
 * npm run bench:search: 100,000 generated Arabic articles of about 2 KB in a temporary database, 200
 * queries of 1–3 words, and the p50/p95/p99 time of our search beside a plain LIKE '%…%' scan.
 * Usage: npm run bench:search -- [articles] [queries] [--database postgres://…] [--keep]
 *        [--reuse <database>] [--skip-like]
 * The temporary database is a SQLite file, or with `--database` (or DATABASE_URL) naming a PostgreSQL
 * server, a database created on it for the run and dropped after. `--keep` keeps it and prints where;
 * `--reuse` measures one kept before (same articles and queries: the generator is seeded) without
 * filling and indexing it again; `--skip-like` leaves out the LIKE scan (minutes on PostgreSQL).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { CATEGORIES } from "../../app/lib/categories";
import { parseQuery } from "../../app/lib/search/search-terms";
import { demoArticles } from "../../app/server/demo/demo-articles";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import { dialectName } from "../../app/server/db/dialect.server";
import { isPostgresUrl } from "../../app/server/platform/database-url.server";
import { migrateToLatest } from "../../app/server/data/migrate.server";
import { findMatchingArticleIds, rebuildSearchIndex } from "../../app/server/search/search-index.server";
import { SEARCH_PAGE_SIZE, searchNews } from "../../app/server/news/search-news.server";
import { createPostgresDatabase } from "../../harness/postgres";
import { seededRandom } from "../../harness/seeded-random";

const { values: options, positionals } = parseArgs({
  options: {
    database: { type: "string" },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
    "skip-like": { type: "boolean", default: false },
  },
  allowPositionals: true,
});
const ARTICLES = Number(positionals[0] ?? 100_000);
const QUERIES = Number(positionals[1] ?? 200);
const SERVER_URL = options.database ?? process.env.DATABASE_URL;
const CONTENT_CHARS = 2_000;
const INSERT_BATCH = 1_000;
const SPAN_MS = 3 * 365 * 86_400_000;

const random = seededRandom(20_260_105);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** The demo articles' words, most frequent first: real Arabic with its clitics and spellings. */
function vocabulary(): string[] {
  const counts = new Map<string, number>();
  for (const article of demoArticles) {
    for (const word of [article.title, ...article.paragraphs].join(" ").split(/[\s\p{P}\p{S}\d]+/u)) {
      if (word.length >= 2) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([word]) => word);
}

/** Draws words with Zipf's law (the rank-r word r times rarer than the first), as in real text. */
function zipfSampler(words: string[]): () => string {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return words[low] ?? "";
  };
}

function sentence(word: () => string, min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, word).join(" ");
}

function content(word: () => string): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < CONTENT_CHARS) {
    const paragraph = Array.from({ length: 3 + Math.floor(random() * 3) }, () => `${sentence(word, 8, 18)}.`).join(" ");
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join("\n\n");
}

/** Inserts the generated articles; with `insert` false only draws them, so that the queries drawn next are the same. */
async function fillDatabase(db: DB, word: () => string, insert = true): Promise<number> {
  const now = Date.now();
  let chars = 0;
  for (let first = 0; first < ARTICLES; first += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, ARTICLES - first) }, (_, i) => {
      const text = content(word);
      chars += text.length;
      const createdAt = new Date(now - Math.floor(random() * SPAN_MS)).toISOString();
      const status = random() < 0.05 ? ("draft" as const) : ("published" as const);
      return {
        id: `bench${String(first + i).padStart(8, "0")}`,
        title: sentence(word, 6, 11),
        content: text,
        category: pick(CATEGORIES),
        images: "[]",
        image_url: null,
        video: null,
        is_video: 0,
        status,
        visits: 0,
        author_id: null,
        created_at: createdAt,
        updated_at: null,
        published_at: status === "published" ? createdAt : null,
      };
    });
    if (insert) await db.transaction().execute((trx) => trx.insertInto("news").values(rows).execute());
  }
  return chars / ARTICLES;
}

/** What readers type: common and rare words, some without hamza or with ه for ة, some cut short, some with a clitic. */
function queries(words: string[], common: () => string): string[] {
  const variant = (word: string): string => {
    const roll = random();
    if (roll < 0.15) return word.replace(/[أإآ]/g, "ا").replace(/ة/g, "ه");
    if (roll < 0.3 && word.length > 4) return word.slice(0, Math.max(3, word.length - 2));
    if (roll < 0.4) return word.startsWith("ال") ? word.slice(2) : `وال${word}`;
    return word;
  };
  return Array.from({ length: QUERIES }, () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => variant(random() < 0.5 ? common() : pick(words))).join(
      " ",
    ),
  );
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The search this replaces: every word a substring of title or content, newest first. */
async function likeScan(db: DB, query: string): Promise<number> {
  let scan = db.selectFrom("news").select("id").where("status", "=", "published");
  for (const word of query.split(/\s+/).filter(Boolean)) {
    const pattern = `%${escapeLike(word)}%`;
    scan = scan.where((eb) =>
      eb.or([
        sql<boolean>`lower(title) like lower(${pattern}) escape '\\'`,
        sql<boolean>`lower(content) like lower(${pattern}) escape '\\'`,
      ]),
    );
  }
  const rows = await scan
    .orderBy("created_at", "desc")
    .limit(SEARCH_PAGE_SIZE + 1)
    .execute();
  return rows.length;
}

async function timeEach(list: string[], run: (query: string) => Promise<number>) {
  for (const query of list.slice(0, 10)) await run(query);
  const times: number[] = [];
  let hits = 0;
  for (const query of list) {
    const start = performance.now();
    hits += await run(query);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: times.at(-1) ?? 0, hits: hits / list.length };
}

/** A database to fill and drop: a SQLite file in a temporary folder, or a fresh database on the PostgreSQL server named. */
async function temporaryDatabase(): Promise<{ db: DB; size: () => Promise<string>; drop: () => Promise<void> }> {
  if (options.reuse !== undefined) {
    const db = openDatabase(options.reuse);
    return { db, size: async () => options.reuse!, drop: () => db.destroy() };
  }
  if (SERVER_URL !== undefined && isPostgresUrl(SERVER_URL)) {
    const postgres = await createPostgresDatabase("akhbar_bench_", SERVER_URL);
    const db = openDatabase(postgres.url);
    return {
      db,
      size: async () => {
        const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(db);
        return `database ${((rows[0]?.bytes ?? 0) / 1e6).toFixed(0)} MB`;
      },
      drop: async () => {
        await db.destroy();
        if (options.keep) console.log(`Kept: --reuse ${postgres.url}`);
        else await postgres.drop();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-bench-"));
  const file = path.join(dir, "bench.db");
  const db = openDatabase(file);
  const bytes = (name: string) => (existsSync(name) ? statSync(name).size : 0);
  return {
    db,
    size: async () => `database and journal ${((bytes(file) + bytes(`${file}-wal`)) / 1e6).toFixed(0)} MB`,
    drop: async () => {
      await db.destroy();
      if (options.keep) console.log(`Kept: --reuse ${file}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

const { db, size, drop } = await temporaryDatabase();
try {
  const words = vocabulary();
  const common = zipfSampler(words);
  if (options.reuse !== undefined) {
    await fillDatabase(db, common, false);
    console.log(`Reusing ${await size()}`);
  } else {
    await migrateToLatest(db);
    let started = performance.now();
    const averageChars = await fillDatabase(db, common);
    console.log(
      `Inserted ${ARTICLES.toLocaleString("en")} articles (${Math.round(averageChars)} characters each on average) in ${seconds(started)}`,
    );
    started = performance.now();
    await db.transaction().execute((trx) => rebuildSearchIndex(trx));
    console.log(`Built the search index in ${seconds(started)}; ${await size()}`);
  }

  const list = queries(words, common);
  const rows = [
    ["search page (index + snippets)", await timeEach(list, async (q) => (await searchNews(db, q)).results.length)],
    [
      "index only (ids)",
      await timeEach(list, async (q) =>
        Math.min(
          SEARCH_PAGE_SIZE,
          (
            await findMatchingArticleIds(db, parseQuery(q), {
              offset: 0,
              limit: SEARCH_PAGE_SIZE + 1,
            })
          ).length,
        ),
      ),
    ],
    ...(options["skip-like"]
      ? []
      : ([
          ["LIKE '%…%' scan", await timeEach(list, async (q) => Math.min(SEARCH_PAGE_SIZE, await likeScan(db, q)))],
        ] as const)),
  ] as const;

  console.log(
    `\n${dialectName(db)}: ${QUERIES} queries of 1–3 words over ${ARTICLES.toLocaleString("en")} articles, times in ms (first page of ${SEARCH_PAGE_SIZE}):\n`,
  );
  const header = ["", "p50", "p95", "p99", "max", "results/query"];
  const table = rows.map(([name, t]) => [
    name,
    t.p50.toFixed(2),
    t.p95.toFixed(2),
    t.p99.toFixed(2),
    t.max.toFixed(2),
    t.hits.toFixed(1),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...table].map((row) => (row[i] ?? "").length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of table) console.log(line(row));
} finally {
  await drop();
}
