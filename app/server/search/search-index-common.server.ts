/** What both engines' search indexes do alike: the table of known terms, and paging across tiers. */
import { sql, type QueryExecutorProvider } from "kysely";

/** The article's text beyond its title that search reads: its standfirst and its body. */
export function bodyText(article: { standfirst: string | null; content: string }): string {
  return article.standfirst ? `${article.standfirst}\n${article.content}` : article.content;
}

/** How an engine reads one tier: a page of its ids, newest first, and how many it holds. */
export type TierReader<T> = {
  ids: (tier: T, offset: number, limit: number) => Promise<string[]>;
  count: (tier: T) => Promise<number>;
};

/** Ids of one page of matches, tier after tier, each tier newest first. */
export async function readPageAcrossTiers<T>(
  tiers: T[],
  reader: TierReader<T>,
  page: { offset: number; limit: number },
): Promise<string[]> {
  const ids: string[] = [];
  let offset = page.offset;
  for (const tier of tiers) {
    const found = await reader.ids(tier, offset, page.limit - ids.length);
    ids.push(...found);
    if (ids.length === page.limit) break;
    // This tier ran out: it used up all of the offset if it had rows past it, else its whole size.
    if (found.length > 0) offset = 0;
    else if (offset > 0) offset = Math.max(0, offset - (await reader.count(tier)));
  }
  return ids;
}

/** Past this many, a prefix is not spelled out as the terms it stands for. */
const MAX_EXPANSION = 64;
const TERMS_PER_STATEMENT = 500;

/**
 * Adds terms to `news_search_terms`, the table of every term indexed that turns a long prefix into the
 * terms it stands for. It only grows: stale terms match nothing, and a rebuild clears them.
 */
export async function rememberTerms(db: QueryExecutorProvider, terms: string[]): Promise<void> {
  // In one order for every writer: two transactions adding the same new terms in opposite orders
  // would each wait for the other on a server that runs writes in parallel.
  const sorted = [...terms].sort();
  for (let first = 0; first < sorted.length; first += TERMS_PER_STATEMENT) {
    const values = sorted.slice(first, first + TERMS_PER_STATEMENT).map((term) => sql`(${term})`);
    await sql`insert into news_search_terms (term) values ${sql.join(values)} on conflict (term) do nothing`.execute(
      db,
    );
  }
}

/**
 * The indexed terms each prefix stands for, or null for a prefix that stands for too many to list; one
 * statement for all of them (a round trip costs more than these lookups on a database server).
 */
export async function termsStartingWith(
  db: QueryExecutorProvider,
  prefixes: string[],
): Promise<Map<string, string[] | null>> {
  const unique = [...new Set(prefixes)];
  const expansions = new Map<string, string[] | null>(unique.map((prefix) => [prefix, []]));
  if (unique.length === 0) return expansions;
  // Every term starting with a prefix sorts below prefix + U+10FFFF, which no term contains (both
  // engines compare this column by code point).
  const lookups = unique.map(
    (prefix, i) => sql`select ${sql.lit(i)} as prefix, term from (
      select term from news_search_terms where term >= ${prefix} and term < ${`${prefix}\u{10FFFF}`}
      limit ${MAX_EXPANSION + 1}) as starting`,
  );
  const { rows } = await sql<{ prefix: number; term: string }>`${sql.join(lookups, sql` union all `)}`.execute(db);
  for (const { prefix, term } of rows) expansions.get(unique[Number(prefix)] as string)?.push(term);
  for (const [prefix, terms] of expansions)
    if (terms !== null && terms.length > MAX_EXPANSION) expansions.set(prefix, null);
  return expansions;
}
