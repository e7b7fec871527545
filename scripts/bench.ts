/**
 * npm run bench: anonymous readers against the production server on a seeded database, beside a
 * minimal Node http server returning the same HTML from memory (the ceiling on this machine).
 * Prints requests per second and p50/p99 latency per page, with and without the page cache, and
 * the JavaScript and CSS the article page sends, gzipped.
 *
 * On SQLite by default (a temporary file); `DATABASE_URL=postgres://… npm run bench` or
 * `npm run bench -- --database postgres://…` runs it on PostgreSQL, in a database it creates on that
 * server and drops at the end.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { isPostgresUrl } from "../app/server/db/dialect.server";
import { pageWeight } from "../tests/support/page-weight";
import { createPostgresDatabase } from "../tests/support/postgres";
import { startTestServer } from "../tests/support/test-server";
import { seedArticles } from "./bench-data";
import { ensureBuild } from "./ensure-build";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const { values: flags } = parseArgs({ options: { database: { type: "string" } }, strict: true });
const givenUrl = flags.database ?? process.env.DATABASE_URL;
/** The PostgreSQL server to create the bench's databases on; none: temporary SQLite files. */
const postgresServer = givenUrl && isPostgresUrl(givenUrl) ? givenUrl : undefined;
const ENGINE = postgresServer ? "PostgreSQL" : "SQLite";

type Row = { page: string; rps: number; p50: number; p99: number; errors: number };

function load(url: string): Promise<Row & { url: string }> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { "accept-encoding": "br, gzip" } }, (error, result) => {
      if (error) return reject(error);
      resolve({
        url,
        page: "",
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      });
    });
  });
}

/** The same bytes from memory, compressed once: the most this machine can serve. */
async function ceilingServer(html: string): Promise<{ url: string; close: () => void }> {
  const body = gzipSync(html);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

function table(title: string, rows: Row[]) {
  console.log(`\n${title}\n`);
  console.log("| page | req/s | p50 ms | p99 ms | errors |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.page} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
}

ensureBuild();
const results: Record<string, Row[]> = {};
let budget = { js: 0, css: 0 };
let ceiling: Row | undefined;
for (const pageCache of ["off", "on"] as const) {
  const database = postgresServer ? await createPostgresDatabase("akhbar_bench_", postgresServer) : undefined;
  const server = await startTestServer({
    PAGE_CACHE_SECONDS: pageCache === "on" ? "10" : "0",
    LOG_LEVEL: "error",
    // Without it, startTestServer gives the server an empty database of its own.
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  console.log(`seeding ${ARTICLES} articles (page cache ${pageCache})…`);
  const { articleId } = await seedArticles(server.env, ARTICLES);
  const pages: [string, string][] = [
    ["home", "/"],
    ["category", "/local"],
    ["article", `/news/${articleId}`],
    ["search", `/search?query=${encodeURIComponent("طرابلس")}`],
  ];
  const rows: Row[] = [];
  for (const [page, path] of pages) {
    await fetch(`${server.url}${path}`);
    rows.push({ ...(await load(`${server.url}${path}`)), page });
  }
  results[pageCache] = rows;
  if (pageCache === "on") {
    budget = await pageWeight(server.url, `/news/${articleId}`);
    const html = await (await fetch(`${server.url}/news/${articleId}`)).text();
    const memory = await ceilingServer(html);
    ceiling = { ...(await load(memory.url)), page: "ceiling: same article HTML from memory (node:http)" };
    memory.close();
  }
  await server.stop();
  await database?.drop();
}

table(`${ENGINE}: anonymous readers, ${CONNECTIONS} connections, ${SECONDS} s per page, ${ARTICLES} articles — page cache off (PAGE_CACHE_SECONDS=0)`, results.off!);
table(`Same, page cache on (default, 10 s)`, [...results.on!, ceiling!]);
const article = results.on!.find((r) => r.page === "article")!;
console.log(`\nArticle page with the page cache: ${Math.round((article.rps / ceiling!.rps) * 100)}% of the ceiling's requests per second, p99 ${article.p99} ms.`);
console.log(`Article page assets, gzipped: JavaScript ${(budget.js / 1024).toFixed(1)} KB, CSS ${(budget.css / 1024).toFixed(1)} KB.`);
