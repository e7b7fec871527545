/**
 * The search index on SQLite, and the only SQLite-specific search code (see
 * docs/decisions/003-search-index.md). Migration 002 creates its three tables, filled by
 * `rebuildSqliteSearchIndex` after migrating (app/server/data/migrate.server.ts):
 *
 * - `news_search`, FTS5, one column of each article's index terms (see `indexTerms`), then its title's
 *   terms once more behind TITLE_MARK. The normalizer already did all the work, so the `ascii`
 *   tokenizer only splits at spaces; contentless with `detail=none`, it keeps just which article has
 *   which term. Its rowid encodes `created_at` (milliseconds × 1000 + a tie-breaker), so FTS5 returns
 *   matches newest first and stops at the end of the page instead of sorting every match.
 * - `news_search_keys`, rowid ↔ news id.
 * - `news_search_terms` (see `rememberTerms`), to turn a prefix into the terms it stands for: FTS5
 *   answers a prefix of 2 or 3 letters from its prefix index, but a longer one by merging every
 *   matching term's whole list first, which is slow for common words.
 */
import { sql, type QueryExecutorProvider, type RawBuilder } from "kysely";
import { bodyText, readPageAcrossTiers, rememberTerms, termsStartingWith } from "./search-index-common.server";
import {
  indexTerms,
  resultTiers,
  type Match,
  type QueryTerm,
  type QueryWord,
  type Tier,
} from "~/lib/search/search-terms";

const ROWIDS_PER_MILLISECOND = 1000;
const REBUILD_BATCH = 200;
/** The normalizer turns § into a space, so no term a reader types can carry it. */
const TITLE_MARK = "§";
/** The prefix='2 3' of migration 002. */
const PREFIX_INDEX_LENGTHS = [2, 3];
const MAX_ROWID_ATTEMPTS = 20;

type Executor = QueryExecutorProvider;
type ArticleText = { id: string; title: string; standfirst: string | null; content: string; created_at: string };

const ARTICLE_COLUMNS = sql`id, title, standfirst, content, created_at`;

/** The first rowid of the article's millisecond. */
function rowidBase(createdAt: string): number {
  const ms = Date.parse(createdAt);
  return (Number.isFinite(ms) ? ms : 0) * ROWIDS_PER_MILLISECOND;
}

/** The next rowid in the article's millisecond, or past every rowid if a thousand share it: a guess only. */
async function likelyFreeRowid(db: Executor, createdAt: string): Promise<number> {
  const base = rowidBase(createdAt);
  const { rows } = await sql<{ last: number | null }>`
    select max(search_rowid) as last from news_search_keys
    where search_rowid between ${base} and ${base + ROWIDS_PER_MILLISECOND - 1}`.execute(db);
  const last = rows[0]?.last ?? null;
  if (last === null) return base;
  if (last < base + ROWIDS_PER_MILLISECOND - 1) return last + 1;
  const { rows: highest } = await sql<{ last: number }>`select max(search_rowid) as last from news_search_keys`.execute(
    db,
  );
  return (highest[0]?.last ?? base) + 1;
}

/**
 * Takes a rowid for the article. The primary key decides: a writer that took the guessed rowid
 * first (in a transaction running beside this one) makes the insert a no-op, and the next guess sees it.
 */
async function claimRowid(db: Executor, newsId: string, createdAt: string): Promise<number> {
  for (let attempt = 0; attempt < MAX_ROWID_ATTEMPTS; attempt++) {
    const rowid = await likelyFreeRowid(db, createdAt);
    const claimed = await sql`insert into news_search_keys (search_rowid, news_id) values (${rowid}, ${newsId})
      on conflict (search_rowid) do nothing`.execute(db);
    if (claimed.numAffectedRows === 1n) return rowid;
  }
  throw new Error(`no free search rowid for article ${newsId} after ${MAX_ROWID_ATTEMPTS} attempts`);
}

/** What FTS5 indexes for an article, and the terms in it. */
function indexedText(article: ArticleText): { text: string; terms: string[] } {
  const title = indexTerms(article.title);
  const terms = [...new Set([...title, ...indexTerms(bodyText(article))])];
  return { text: [...terms, ...title.map((term) => TITLE_MARK + term)].join(" "), terms };
}

async function insertEntry(db: Executor, article: ArticleText): Promise<void> {
  const rowid = await claimRowid(db, article.id, article.created_at);
  const { text, terms } = indexedText(article);
  await sql`insert into news_search (rowid, terms) values (${rowid}, ${text})`.execute(db);
  await rememberTerms(db, terms);
}

async function removeEntry(db: Executor, newsId: string): Promise<void> {
  const { rows } = await sql<{ search_rowid: number }>`
    select search_rowid from news_search_keys where news_id = ${newsId}`.execute(db);
  const rowid = rows[0]?.search_rowid;
  if (rowid === undefined) return;
  await sql`delete from news_search where rowid = ${rowid}`.execute(db);
  await sql`delete from news_search_keys where search_rowid = ${rowid}`.execute(db);
}

/** Terms stay in `news_search_terms` after their last article goes: they then match nothing. */
export async function syncSqliteSearchIndex(db: Executor, newsId: string): Promise<void> {
  await removeEntry(db, newsId);
  const { rows } = await sql<ArticleText>`
    select ${ARTICLE_COLUMNS} from news where id = ${newsId}`.execute(db);
  const article = rows[0];
  if (article) await insertEntry(db, article);
}

/**
 * Indexes every article afresh (after migrating, on `npm run search:rebuild`, after bulk loads), oldest first and many rows per
 * statement: FTS5 flushes its in-memory buffer whenever a rowid is lower than the one before.
 */
export async function rebuildSqliteSearchIndex(db: Executor): Promise<number> {
  await sql`delete from news_search`.execute(db);
  await sql`delete from news_search_keys`.execute(db);
  await sql`delete from news_search_terms`.execute(db);
  const { rows: order } = await sql<{ id: string }>`select id from news order by created_at, id`.execute(db);
  const known = new Set<string>();
  let lastRowid = -Infinity;
  for (let first = 0; first < order.length; first += REBUILD_BATCH) {
    const ids = order.slice(first, first + REBUILD_BATCH).map((row) => row.id);
    const { rows } = await sql<ArticleText>`
      select ${ARTICLE_COLUMNS} from news where id in (${sql.join(ids)})
      order by created_at, id`.execute(db);
    const rowids = rows.map((article) => (lastRowid = Math.max(rowidBase(article.created_at), lastRowid + 1)));
    const entries = rows.map((article) => indexedText(article));
    await sql`insert into news_search_keys (search_rowid, news_id)
      values ${sql.join(rows.map((article, i) => sql`(${rowids[i]}, ${article.id})`))}`.execute(db);
    await sql`insert into news_search (rowid, terms)
      values ${sql.join(entries.map((entry, i) => sql`(${rowids[i]}, ${entry.text})`))}`.execute(db);
    const unseen = [...new Set(entries.flatMap((entry) => entry.terms))].filter((term) => !known.has(term));
    for (const term of unseen) known.add(term);
    await rememberTerms(db, unseen);
  }
  await sql`insert into news_search (news_search) values ('optimize')`.execute(db);
  return order.length;
}

type Expansions = Map<string, string[] | null>;

function servedByPrefixIndex(prefix: string): boolean {
  return PREFIX_INDEX_LENGTHS.includes([...prefix].length);
}

/** The indexed terms each prefix stands for, where FTS5's prefix index cannot serve it or its title form. */
async function expansionsFor(db: Executor, words: QueryWord[]): Promise<Expansions> {
  const prefixes = words
    .flat()
    .filter(({ text, prefix }) => prefix && !(servedByPrefixIndex(text) && servedByPrefixIndex(TITLE_MARK + text)))
    .map(({ text }) => text);
  return termsStartingWith(db, prefixes);
}

/** A term as FTS5 strings: the reader's text is always a quoted string, never an operator. */
function ftsTerm(term: QueryTerm, mark: string, expansions: Expansions): string {
  const quote = (text: string) => `"${(mark + text).replaceAll('"', '""')}"`;
  if (!term.prefix) return quote(term.text);
  const spelledOut = servedByPrefixIndex(mark + term.text) ? null : (expansions.get(term.text) ?? null);
  // Too many terms to spell out: FTS5 merges them itself, slower but complete.
  if (spelledOut === null) return `${quote(term.text)}*`;
  return spelledOut.length === 0 ? quote(term.text) : spelledOut.map(quote).join(" OR ");
}

function ftsMatch({ words, inTitle }: Match, expansions: Expansions): string {
  const mark = inTitle ? TITLE_MARK : "";
  return words.map((word) => `(${word.map((term) => ftsTerm(term, mark, expansions)).join(" OR ")})`).join(" AND ");
}

/** A tier as one FTS5 expression: its match, NOT each match before it. */
function ftsTier({ match, unless }: Tier, expansions: Expansions): string {
  return unless.reduce(
    (expression, earlier) => `(${expression}) NOT (${ftsMatch(earlier, expansions)})`,
    ftsMatch(match, expansions),
  );
}

type Page = { offset: number; limit: number };

/** Readers search published articles only, whoever is signed in (decision 031). */
const PUBLISHED_ONLY = sql`and news.status = 'published'`;

async function matchingIds(db: Executor, expression: string, page: Page): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select news.id as id from news_search
    join news_search_keys on news_search_keys.search_rowid = news_search.rowid
    join news on news.id = news_search_keys.news_id
    where news_search match ${expression} ${PUBLISHED_ONLY}
    order by news_search.rowid desc
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows.map((row) => row.id);
}

async function countMatching(db: Executor, expression: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from news_search
    join news_search_keys on news_search_keys.search_rowid = news_search.rowid
    join news on news.id = news_search_keys.news_id
    where news_search match ${expression} ${PUBLISHED_ONLY}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Ids of one page of matches, tier after tier, each tier newest first. */
export async function searchSqliteIndex(db: Executor, words: QueryWord[], page: Page): Promise<string[]> {
  if (words.length === 0) return [];
  const expansions = await expansionsFor(db, words);
  return readPageAcrossTiers(
    resultTiers(words).map((tier) => ftsTier(tier, expansions)),
    {
      ids: (tier, offset, limit) => matchingIds(db, tier, { ...page, offset, limit }),
      count: (tier) => countMatching(db, tier),
    },
    page,
  );
}

/** Articles holding every query word anywhere, whatever their status: `news.id` among them. */
export async function sqliteArticlesMatching(db: Executor, words: QueryWord[]): Promise<RawBuilder<boolean>> {
  const expression = ftsMatch({ words, inTitle: false }, await expansionsFor(db, words));
  return sql<boolean>`news.id in (
    select news_search_keys.news_id from news_search
    join news_search_keys on news_search_keys.search_rowid = news_search.rowid
    where news_search match ${expression})`;
}
