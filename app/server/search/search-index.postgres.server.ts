/**
 * The search index on PostgreSQL, and the only PostgreSQL-specific search code (see
 * docs/decisions/003-search-index.md). Migration 005 creates its tables, filled by
 * `rebuildPostgresSearchIndex` after migrating:
 *
 * - `news_search`, one row per article: its keys as two `text[]` with GIN indexes, `keys` for the
 *   whole article and `title_keys` for its title. Keys are the article's index terms (see
 *   `indexTerms`) and, behind PREFIX_MARK, the first 2 and 3 letters of each, so that short prefixes are
 *   one key, as FTS5's prefix index serves them on SQLite. `created_at`, `entry` (an identity, later
 *   indexings after earlier ones, as SQLite's rowids within a millisecond) and `published` are copied
 *   from the article, so a tier is read newest first from this table alone.
 * - `news_search_terms` (see `rememberTerms`), to spell out a longer prefix as the terms it stands for.
 */
import { sql, type QueryExecutorProvider, type RawBuilder } from "kysely";
import { indexTerms, resultTiers, VARIANT_MARK, type Match, type QueryWord, type Tier } from "~/lib/search/search-terms";
import { readPageAcrossTiers, rememberTerms, termsStartingWith } from "./search-index-common.server";

const REBUILD_BATCH = 200;
/** The normalizer turns * into a space, so no term carries it. */
const PREFIX_MARK = "*";
const PREFIX_KEY_LENGTHS = [2, 3];
const LONGEST_PREFIX_KEY = 3;
const RECENT_WINDOW = 100;

type Executor = QueryExecutorProvider;
type Article = { id: string; title: string; content: string; created_at: string; status: string };
type Expansions = Map<string, string[] | null>;

function firstLetters(text: string, count: number): string {
  return [...text].slice(0, count).join("");
}

/** The terms and their short prefixes, as keys. */
function keysOf(terms: string[]): string[] {
  const keys = new Set(terms);
  for (const term of terms) {
    if (term.startsWith(VARIANT_MARK)) continue;
    const length = [...term].length;
    for (const n of PREFIX_KEY_LENGTHS) if (length >= n) keys.add(PREFIX_MARK + firstLetters(term, n));
  }
  return [...keys];
}

function entryOf(article: Article) {
  const titleTerms = indexTerms(article.title);
  const terms = [...new Set([...titleTerms, ...indexTerms(article.content)])];
  return { article, terms, titleKeys: keysOf(titleTerms), keys: keysOf(terms) };
}

async function insertEntries(db: Executor, articles: Article[]): Promise<string[]> {
  const entries = articles.map(entryOf);
  const rows = entries.map(
    ({ article, titleKeys, keys }) =>
      sql`(${article.id}, ${article.created_at}::timestamptz, ${article.status === "published"}, ${titleKeys}::text[], ${keys}::text[])`,
  );
  await sql`insert into news_search (news_id, created_at, published, title_keys, keys) values ${sql.join(rows)}`.execute(
    db,
  );
  return [...new Set(entries.flatMap((entry) => entry.terms))];
}

const ARTICLE_COLUMNS = sql`id, title, content, created_at, status`;

/** Terms stay in `news_search_terms` after their last article goes: they then match nothing. */
export async function syncPostgresSearchIndex(db: Executor, newsId: string): Promise<void> {
  await sql`delete from news_search where news_id = ${newsId}`.execute(db);
  const { rows } = await sql<Article>`select ${ARTICLE_COLUMNS} from news where id = ${newsId}`.execute(db);
  if (rows.length > 0) await rememberTerms(db, await insertEntries(db, rows));
}

/** Indexes every article afresh, oldest first, so that `entry` orders articles of one moment as SQLite does. */
export async function rebuildPostgresSearchIndex(db: Executor): Promise<number> {
  await sql`delete from news_search`.execute(db);
  await sql`delete from news_search_terms`.execute(db);
  const { rows: order } = await sql<{ id: string }>`select id from news order by created_at, id`.execute(db);
  const known = new Set<string>();
  for (let first = 0; first < order.length; first += REBUILD_BATCH) {
    const ids = order.slice(first, first + REBUILD_BATCH).map((row) => row.id);
    const { rows } = await sql<Article>`
      select ${ARTICLE_COLUMNS} from news where id in (${sql.join(ids)}) order by created_at, id`.execute(db);
    const unseen = (await insertEntries(db, rows)).filter((term) => !known.has(term));
    for (const term of unseen) known.add(term);
    await rememberTerms(db, unseen);
  }
  await leaveIndexReady(db);
  return order.length;
}

/**
 * After rewriting every row: statistics for the planner (without them it cannot tell a short span of
 * recent rows from the whole table, and walks every row for a span's matches), and the GIN indexes'
 * pending lists merged, which every search would otherwise read through. Neither waits for
 * autovacuum, which may be off or minutes away; both run inside the rebuild's transaction.
 */
async function leaveIndexReady(db: Executor): Promise<void> {
  await sql`analyze news_search`.execute(db);
  await sql`analyze news_search_terms`.execute(db);
  await sql`select gin_clean_pending_list('news_search_keys_idx'), gin_clean_pending_list('news_search_title_keys_idx')`.execute(
    db,
  );
}

/** The indexed terms each prefix longer than a prefix key stands for. */
function expansionsFor(db: Executor, words: QueryWord[]): Promise<Expansions> {
  const prefixes = words
    .flat()
    .filter(({ text, prefix }) => prefix && [...text].length > LONGEST_PREFIX_KEY)
    .map(({ text }) => text);
  return termsStartingWith(db, prefixes);
}

/**
 * One query word as a condition on a key column: any of its keys present (one GIN lookup), or for a
 * prefix that stands for too many terms to list, its first letters' key and a scan of the row's keys.
 */
function wordCondition(word: QueryWord, column: RawBuilder<unknown>, expansions: Expansions): RawBuilder<boolean> {
  const keys: string[] = [];
  const scans: RawBuilder<boolean>[] = [];
  for (const term of word) {
    if (!term.prefix) keys.push(term.text);
    else if ([...term.text].length <= LONGEST_PREFIX_KEY) keys.push(PREFIX_MARK + term.text);
    else {
      const spelledOut = expansions.get(term.text) ?? null;
      if (spelledOut !== null) keys.push(...spelledOut);
      else
        scans.push(sql<boolean>`(${column} @> ${[PREFIX_MARK + firstLetters(term.text, LONGEST_PREFIX_KEY)]}::text[]
          and exists (select from unnest(${column}) as key where starts_with(key, ${term.text})))`);
    }
  }
  const anyKey = keys.length > 0 ? [sql<boolean>`${column} && ${keys}::text[]`] : [];
  const alternatives = [...anyKey, ...scans];
  return alternatives.length > 0 ? sql<boolean>`(${sql.join(alternatives, sql` or `)})` : sql<boolean>`false`;
}

function matchCondition({ words, inTitle }: Match, expansions: Expansions): RawBuilder<boolean> {
  const column = inTitle ? sql.ref("title_keys") : sql.ref("keys");
  return sql<boolean>`(${sql.join(
    words.map((word) => wordCondition(word, column, expansions)),
    sql` and `,
  )})`;
}

/** A tier as one condition: its match, and none of the matches before it. */
function tierCondition({ match, unless }: Tier, expansions: Expansions): RawBuilder<boolean> {
  return sql<boolean>`${matchCondition(match, expansions)}${sql.join(
    unless.map((earlier) => sql` and not ${matchCondition(earlier, expansions)}`),
    sql``,
  )}`;
}

type Page = { offset: number; limit: number; includeDrafts: boolean };

function visibleOnly(includeDrafts: boolean) {
  return includeDrafts ? sql`` : sql`and published`;
}

/**
 * A tier's page, read where its matches are cheapest to find. The planner cannot tell which case a
 * tier is (its statistics know how common single keys are, not tiers), so each is asked for explicitly:
 * - the RECENT_WINDOW newest rows, checked in order: a tier of common words fills its page there;
 * - a tier that shows among them but does not fill its page is about as dense further back: the GIN
 *   indexes' matches among the newest rows that should hold the page twice over, so that only those
 *   rows are visited (visiting every match of a tier holding a few percent of the articles, and
 *   checking its exclusions on each, was most of the time of the slowest searches);
 * - otherwise every match from the GIN indexes, then sorted.
 */
async function matchingIds(db: Executor, condition: RawBuilder<boolean>, page: Page): Promise<string[]> {
  const wanted = page.offset + page.limit;
  const { rows: recent } = await sql<{ news_id: string }>`
    select news_id from (
      select * from news_search where true ${visibleOnly(page.includeDrafts)}
      order by created_at desc, entry desc limit ${RECENT_WINDOW}) as recent
    where ${condition}
    order by created_at desc, entry desc
    limit ${wanted}`.execute(db);
  if (recent.length === wanted) return recent.slice(page.offset).map((row) => row.news_id);
  if (recent.length > 0) {
    const span = Math.ceil((2 * wanted * RECENT_WINDOW) / recent.length);
    const since = await createdAtOfNewest(db, span, page.includeDrafts);
    if (since !== null) {
      const found = await matchesSince(db, condition, since, page);
      if (found.length === page.limit) return found;
    }
  }
  return matchesSince(db, condition, null, page);
}

/** When the `count`-th newest visible row was created; null when there are fewer rows. */
async function createdAtOfNewest(db: Executor, count: number, includeDrafts: boolean): Promise<string | null> {
  const { rows } = await sql<{ created_at: string }>`
    select created_at from news_search where true ${visibleOnly(includeDrafts)}
    order by created_at desc, entry desc offset ${count - 1} limit 1`.execute(db);
  return rows[0]?.created_at ?? null;
}

/**
 * A page of a tier's matches created at `since` or later (all of them when null), found by the GIN
 * indexes (and the order index for `since`), then sorted.
 */
async function matchesSince(
  db: Executor,
  condition: RawBuilder<boolean>,
  since: string | null,
  page: Page,
): Promise<string[]> {
  const recentOnly = since === null ? sql`` : sql`and created_at >= ${since}::timestamptz`;
  const { rows } = await sql<{ news_id: string }>`
    with matches as materialized (
      select news_id, created_at, entry from news_search
      where ${condition} ${visibleOnly(page.includeDrafts)} ${recentOnly})
    select news_id from matches
    order by created_at desc, entry desc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => row.news_id);
}

async function countMatching(db: Executor, condition: RawBuilder<boolean>, includeDrafts: boolean): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from news_search where ${condition} ${visibleOnly(includeDrafts)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Ids of one page of matches, tier after tier, each tier newest first. */
export async function searchPostgresIndex(db: Executor, words: QueryWord[], page: Page): Promise<string[]> {
  if (words.length === 0) return [];
  const expansions = await expansionsFor(db, words);
  return readPageAcrossTiers(
    resultTiers(words).map((tier) => tierCondition(tier, expansions)),
    {
      ids: (condition, offset, limit) => matchingIds(db, condition, { ...page, offset, limit }),
      count: (condition) => countMatching(db, condition, page.includeDrafts),
    },
    page,
  );
}
