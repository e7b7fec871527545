/**
 * Every reader page's queries, as the real server runs them (harness/query-log.mjs records them from its
 * database drivers), explained on an archive of 10,000 stories whose topic's and author's stories are the
 * oldest: a list that walks the newest-first index to find them visits thousands of rows. On PostgreSQL
 * each statement's plan is run (EXPLAIN ANALYZE) and its scans' rows counted; SQLite, which counts none,
 * must not scan a big table whole nor sort every published story, and must drive a page's own list from
 * the index of what it filters on. The figures: docs/benchmarks.md#reader-queries-and-their-indexes.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES } from "~/lib/categories";
import { topicKey, topicPath, topicSlug } from "~/lib/topics";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { rebuildSearchIndex } from "~/server/search/search-index.server";
import { onPostgres } from "../../harness/postgres";
import { createEmptyDatabase, type EmptyDatabase } from "../../harness/temp-db";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { logLength, postgresCost, queriesSince, sqliteCost, type LoggedQuery } from "../support/query-plans";

const STORIES = 10_000;
/** The oldest stories: the topic's, the author's and the advertisements, all three. */
const OLDEST = 20;
/** Rows a statement may visit beyond those it returns (its scalar subqueries' lookups, a few skipped rows). */
const SLACK = 50;
/** Topics the other stories carry, each on a fifth of the archive. */
const BUSY_TOPICS = 5;
/** Accounts the other stories are by. */
const DESK_ACCOUNTS = 50;
/**
 * The tables that grow with the archive, and the outbox's events (up to 10,000 kept), whose rows are counted. Accounts and topics are a few hundred
 * rows on a busy site: PostgreSQL reads a page or two of them whole, rightly. The media library's focal
 * points are read through a partial index of their own (decision 036).
 */
const ARCHIVE_TABLES = [
  "news",
  "events",
  "news_topics",
  "short_links",
  "news_search",
  "news_search_keys",
  "news_search_terms",
  "news_revisions",
  "live_coverage",
  "live_updates",
  "video_posters",
];

const TOPIC = "زلزال المنية";
const AUTHOR = "كاتب الأرشيف";
const DESK = "مكتب التحرير";
/** A word only the oldest stories' titles carry, for the search page. */
const RARE_WORD = "الزلزال";

/** A story's text, about as long as a short one (the table's size is what a planner weighs a full scan by). */
const PARAGRAPH = "نص الخبر كما كتبه المحرر في المنية وعكار وطرابلس، مع ما قاله الشهود وما أعلنته البلدية. ".repeat(12);

let database: EmptyDatabase;
let db: DB;
let server: TestServer;
let logFile: string;

/** Story 0 is the newest. */
const storyId = (index: number) => `story-${String(index).padStart(5, "0")}`;

/** SQLite lists a topic's stories from its links, or from the stories by id with the links' list in hand. */
const FROM_TOPIC_LINKS = {
  marker: `"news_topics"."topic_id" = `,
  firstLoop:
    /^SEARCH (news_topics USING (COVERING )?INDEX \w+ \(topic_id=\?|news USING INDEX sqlite_autoindex_news_1 \(id=\?\))/,
};

type Page = {
  path: string;
  /** Rows a statement of this page may visit beyond SLACK, a number fixed by design whatever the archive. */
  allowance?: number;
  /** What SQLite's first loop must be for the statement that lists the page's own stories (its SQL holds `marker` and reads titles). */
  drives?: { marker: string; firstLoop: RegExp };
};

const PAGES: Record<string, Page> = {
  home: { path: "/" },
  category: { path: "/local" },
  "rare category": {
    path: "/advertisement",
    drives: { marker: `"news"."category" = `, firstLoop: /^SEARCH news USING INDEX \w+ \(status=\? AND category=\?/ },
  },
  breaking: { path: "/breaking" },
  topic: { path: topicPath(TOPIC), drives: FROM_TOPIC_LINKS },
  "topic, more": { path: `/api/latest?topic=${encodeURIComponent(topicSlug(TOPIC))}&page=2`, drives: FROM_TOPIC_LINKS },
  author: {
    path: `/author/${encodeURIComponent(AUTHOR)}`,
    drives: { marker: `"news"."author_id" in`, firstLoop: /^SEARCH news USING INDEX \w+ \(status=\? AND author_id=\?/ },
  },
  article: { path: `/news/${storyId(STORIES - 1)}` },
  latest: { path: "/api/latest" },
  "category, more": { path: "/api/latest?category=local&page=3" },
  feed: { path: "/rss.xml" },
  "category feed": { path: "/advertisement/rss.xml" },
  "topic feed": { path: `${topicPath(TOPIC)}/rss.xml`, drives: FROM_TOPIC_LINKS },
  // On PostgreSQL a search dates its window of the 100 newest entries by reading them (search-index.postgres.server.ts).
  search: { path: `/search?query=${encodeURIComponent(RARE_WORD)}`, allowance: 100 },
};

async function seedArchive(target: DB): Promise<void> {
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  await target.transaction().execute(async (trx) => {
    await trx
      .insertInto("user")
      .values(
        [AUTHOR, ...Array.from({ length: DESK_ACCOUNTS }, (_, index) => `${DESK} ${index}`)].map((name, index) => ({
          id: `user-${index}`,
          name,
          email: `archive-${index}@example.com`,
          emailVerified: 0,
          createdAt: at(STORIES),
          updatedAt: at(STORIES),
        })),
      )
      .execute();
    const topicId = "archive-topic";
    // The other stories each carry one of the busy topics, so that the links are as many as the stories.
    const names = [TOPIC, ...Array.from({ length: BUSY_TOPICS }, (_, index) => `موضوع ${index}`)];
    const topicRows = names.map((name, index) => ({
      id: index === 0 ? topicId : `busy-${index - 1}`,
      name,
      slug: topicSlug(name),
      key: topicKey(name),
      created_at: at(STORIES),
      updated_at: at(STORIES),
    }));
    await trx.insertInto("topics").values(topicRows).execute();
    const ordinary = CATEGORIES.filter((category) => category !== "advertisement");
    for (let first = 0; first < STORIES; first += 500) {
      const rows = Array.from({ length: Math.min(500, STORIES - first) }, (_, offset) => {
        const index = first + offset;
        const oldest = index >= STORIES - OLDEST;
        const moment = at(index + 1);
        return {
          id: storyId(index),
          title: oldest ? `${RARE_WORD} في المنية (${index})` : `خبر من الأرشيف رقم ${index}`,
          content: PARAGRAPH,
          category: oldest ? "advertisement" : ordinary[index % ordinary.length]!,
          images: index % 3 === 0 ? "[]" : `["/media/archive-${index % 12}.webp"]`,
          is_video: 0,
          status: "published" as const,
          visits: (index * 7919) % 5000,
          author_id: oldest ? "user-0" : `user-${1 + (index % DESK_ACCOUNTS)}`,
          created_at: moment,
          published_at: moment,
        };
      });
      await trx.insertInto("news").values(rows).execute();
      const links = rows.map((row, offset) => ({
        news_id: row.id,
        topic_id: row.category === "advertisement" ? topicId : `busy-${(first + offset) % BUSY_TOPICS}`,
        position: 0,
      }));
      await trx.insertInto("news_topics").values(links).execute();
      const events = rows.map((row) => ({
        kind: "article-published",
        article_id: row.id,
        payload: "{}",
        created_at: row.created_at,
      }));
      await trx.insertInto("events").values(events).execute();
    }
  });
  await rebuildSearchIndex(target);
  // The planner statistics a site that has run a while has (as scripts/bench/data.ts gives its archive).
  await sql`analyze`.execute(target);
}

type Measured = {
  page: string;
  query: LoggedQuery;
  rowsVisited: number | null;
  rowsReturned: number;
  problems: string[];
  plan: string;
};

async function explainAll(page: string, queries: LoggedQuery[]): Promise<Measured[]> {
  const reads = queries.filter((query) => /^\s*(select|with)\b/i.test(query.sql));
  if (onPostgres) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const measured: Measured[] = [];
      for (const query of reads) measured.push({ page, query, ...(await postgresCost(client, query, ARCHIVE_TABLES)) });
      return measured;
    } finally {
      await client.end();
    }
  }
  const sqlite = new SQLite(database.url, { readonly: true });
  try {
    const drives = PAGES[page]?.drives;
    return reads.map((query) => {
      const cost = sqliteCost(sqlite, query, ARCHIVE_TABLES);
      const problems = [...cost.problems];
      const listsStories = drives && query.sql.includes(drives.marker) && query.sql.includes(`"news"."title"`);
      if (listsStories && !drives.firstLoop.test(cost.loops[0] ?? "")) problems.push(`first loop: ${cost.loops[0]}`);
      return { page, query, ...cost, problems };
    });
  } finally {
    sqlite.close();
  }
}

const measurements: Measured[] = [];

beforeAll(async () => {
  database = await createEmptyDatabase();
  db = openDatabase(database.url);
  await migrateToLatest(db);
  await seedArchive(db);
  logFile = path.join(database.dir, "queries.jsonl");
  server = await startTestServer({ DATABASE_URL: database.url, QUERY_LOG_FILE: logFile }, "node", [
    "--import",
    path.resolve("harness/query-log.mjs"),
  ]);
}, 180_000);

afterAll(async () => {
  const rows = measurements.map(({ page, rowsVisited, rowsReturned, problems, query }) => ({
    page,
    rowsVisited,
    rowsReturned,
    problems: problems.join("; "),
    sql: query.sql.slice(0, 90),
  }));
  console.log(`${onPostgres ? "PostgreSQL" : "SQLite"}: reader queries on ${STORIES} stories`);
  console.table(rows);
  await server?.stop();
  await db?.destroy();
  await database?.drop();
});

describe(`reader pages' queries on an archive of ${STORIES} stories (${onPostgres ? "PostgreSQL" : "SQLite"})`, () => {
  for (const [name, page] of Object.entries(PAGES)) {
    it(`${name}: no statement's cost grows with the archive`, async () => {
      const from = logLength(logFile);
      const response = await fetch(`${server.url}${page.path}`);
      expect(response.status, page.path).toBe(200);
      await response.text();
      const measured = await explainAll(name, queriesSince(logFile, from));
      measurements.push(...measured);
      expect(measured.length, `${name} ran no query`).toBeGreaterThan(0);
      const costly = measured.filter(
        (m) => m.problems.length > 0 || (m.rowsVisited ?? 0) > m.rowsReturned + SLACK + (page.allowance ?? 0),
      );
      const report = costly.map(
        (m) =>
          `${m.page}: visited ${m.rowsVisited} rows for ${m.rowsReturned} ${m.problems.join("; ")}\n${m.query.sql}\n${m.plan}`,
      );
      expect(report.join("\n\n")).toBe("");
    });
  }
});
