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
import {
  indexTerms,
  resultTiers,
  VARIANT_MARK,
  type Match,
  type QueryWord,
  type Tier,
} from "~/lib/search/search-terms";
import { bodyText, readPageAcrossTiers, rememberTerms, termsStartingWith } from "./search-index-common.server";

const REBUILD_BATCH = 200;
/** The normalizer turns * into a space, so no term carries it. */
const PREFIX_MARK = "*";
const PREFIX_KEY_LENGTHS = [2, 3];
const LONGEST_PREFIX_KEY = 3;
const RECENT_WINDOW = 100;

type Executor = QueryExecutorProvider;
type Article = {
  id: string;
  title: string;
  standfirst: string | null;
  content: string;
  created_at: string;
  status: string;
};
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
  const terms = [...new Set([...titleTerms, ...indexTerms(bodyText(article))])];
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

const ARTICLE_COLUMNS = sql`id, title, standfirst, content, created_at, status`;

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
 * prefix that stands for too many terms to list, its first letters' key and a scan of the row's keys;
 * null when it has no key at all (a prefix no indexed term starts with) and so matches nothing.
 */
function wordCondition(
  word: QueryWord,
  column: RawBuilder<unknown>,
  expansions: Expansions,
): RawBuilder<boolean> | null {
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
  return alternatives.length > 0 ? sql<boolean>`(${sql.join(alternatives, sql` or `)})` : null;
}

/** A match as one condition; null when one of its words matches nothing. */
function matchCondition({ words, inTitle }: Match, expansions: Expansions): RawBuilder<boolean> | null {
  const column = inTitle ? sql.ref("title_keys") : sql.ref("keys");
  const conditions = words.map((word) => wordCondition(word, column, expansions));
  if (conditions.some((condition) => condition === null)) return null;
  return sql<boolean>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * A tier as conditions the GIN indexes answer alone: its match, and the earlier matches it leaves out.
 * The earlier matches are taken away as sets of rows the indexes found, never checked on a row: a
 * check reads the row's whole key array (see `tierRows`).
 */
type TierQuery = { match: RawBuilder<boolean>; unless: RawBuilder<boolean>[] };

/** The tier's query; null when it matches nothing, so that no statement asks for it. */
function tierQuery({ match, unless }: Tier, expansions: Expansions): TierQuery | null {
  const condition = matchCondition(match, expansions);
  if (condition === null) return null;
  const earlier = unless.map((e) => matchCondition(e, expansions)).filter((e) => e !== null);
  return { match: condition, unless: earlier };
}

type Page = { offset: number; limit: number };

/** Readers search published articles only, whoever is signed in (decision 031). */
const PUBLISHED_ONLY = sql`and published`;

/** When the `count`-th newest row was created (null when there are fewer), asked once per search. */
type Recency = (count: number) => Promise<string | null>;

function recencyOf(db: Executor): Recency {
  const known = new Map<number, Promise<string | null>>();
  return (count) => {
    let since = known.get(count);
    if (since === undefined) {
      since = createdAtOfNewest(db, count);
      known.set(count, since);
    }
    return since;
  };
}

async function createdAtOfNewest(db: Executor, count: number): Promise<string | null> {
  const { rows } = await sql<{ created_at: string }>`
    select created_at from news_search where true ${PUBLISHED_ONLY}
    order by created_at desc, entry desc offset ${count - 1} limit 1`.execute(db);
  return rows[0]?.created_at ?? null;
}

/**
 * A tier's page, read where its matches are cheapest to find; the planner cannot tell which case a
 * tier is (its statistics know how common single keys are, not tiers), so each is asked for explicitly:
 * - the matches among the RECENT_WINDOW newest rows: a tier of common words fills its page there;
 * - a tier that shows among them but does not fill its page is about as dense further back: its
 *   matches among the newest rows that should hold the page twice over;
 * - otherwise all of its matches.
 */
async function matchingIds(db: Executor, tier: TierQuery, page: Page, recency: Recency): Promise<string[]> {
  const wanted = page.offset + page.limit;
  const window = await recency(RECENT_WINDOW);
  if (window === null) return matchesSince(db, tier, null, page);
  const { recent, everything } = await recentOrEverything(db, tier, window, page);
  if (recent.length === wanted) return recent.slice(page.offset);
  if (recent.length === 0) return everything;
  const since = await recency(Math.ceil((2 * wanted * RECENT_WINDOW) / recent.length));
  if (since !== null) {
    const found = await matchesSince(db, tier, since, page);
    if (found.length === page.limit) return found;
  }
  return matchesSince(db, tier, null, page);
}

/**
 * In one statement (a round trip costs more than most of these reads): the first `offset + limit`
 * matches created at `window` or later, and only when there are none, the page of all matches.
 */
async function recentOrEverything(
  db: Executor,
  tier: TierQuery,
  window: string,
  page: Page,
): Promise<{ recent: string[]; everything: string[] }> {
  const { rows } = await sql<{ everything: boolean; news_id: string }>`
    with recent_matches as materialized (${tierRows(tier, window)}),
    recent as materialized (
      select news_id, created_at, entry from recent_matches
      order by created_at desc, entry desc limit ${page.offset + page.limit}),
    all_matches as materialized (
      select * from (${tierRows(tier, null)}) as tier where not exists (select from recent)),
    everything as (
      select news_id, created_at, entry from all_matches
      order by created_at desc, entry desc limit ${page.limit} offset ${page.offset})
    select false as everything, news_id, created_at, entry from recent
    union all
    select true, news_id, created_at, entry from everything
    order by everything, created_at desc, entry desc`.execute(db);
  return {
    recent: rows.filter((row) => !row.everything).map((row) => row.news_id),
    everything: rows.filter((row) => row.everything).map((row) => row.news_id),
  };
}

/**
 * The rows of a tier created at `since` or later (all of them when null). Each condition is read from
 * its GIN index alone (exact for `&&` and `@>`: the rows found are not checked again), intersected
 * with the order index for `since`, and the earlier matches are taken away as sets (`except`), because
 * checking one row's keys is slow (a large array stored out of line; docs/benchmarks.md#003-search-index).
 * Only a prefix too common to spell out still checks the keys of the rows its short prefix key finds.
 */
function tierRows(tier: TierQuery, since: string | null): RawBuilder<unknown> {
  const scope = sql`${PUBLISHED_ONLY} ${since === null ? sql`` : sql`and created_at >= ${since}::timestamptz`}`;
  const rows = (condition: RawBuilder<boolean>) =>
    sql`select news_id, created_at, entry from news_search where ${condition} ${scope}`;
  return sql`${rows(tier.match)}${sql.join(
    tier.unless.map((earlier) => sql` except ${rows(earlier)}`),
    sql``,
  )}`;
}

async function matchesSince(db: Executor, tier: TierQuery, since: string | null, page: Page): Promise<string[]> {
  // Materialized (here and below): else the planner may walk the order index and check each row's keys.
  const { rows } = await sql<{ news_id: string }>`
    with tier as materialized (${tierRows(tier, since)})
    select news_id from tier
    order by created_at desc, entry desc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => row.news_id);
}

async function countMatching(db: Executor, tier: TierQuery): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from (${tierRows(tier, null)}) as tier`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Ids of one page of matches, tier after tier, each tier newest first. */
export async function searchPostgresIndex(db: Executor, words: QueryWord[], page: Page): Promise<string[]> {
  if (words.length === 0) return [];
  const expansions = await expansionsFor(db, words);
  const recency = recencyOf(db);
  return readPageAcrossTiers(
    resultTiers(words)
      .map((tier) => tierQuery(tier, expansions))
      .filter((tier) => tier !== null),
    {
      ids: (tier, offset, limit) => matchingIds(db, tier, { ...page, offset, limit }, recency),
      count: (tier) => countMatching(db, tier),
    },
    page,
  );
}

/** Articles holding every query word anywhere, whatever their status: `news.id` among them. */
export async function postgresArticlesMatching(db: Executor, words: QueryWord[]): Promise<RawBuilder<boolean>> {
  const condition = matchCondition({ words, inTitle: false }, await expansionsFor(db, words));
  if (condition === null) return sql<boolean>`false`;
  return sql<boolean>`news.id in (select news_id from news_search where ${condition})`;
}
