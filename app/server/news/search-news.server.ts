import type { NewsSummary } from "~/lib/news";
import { highlight, snippet, type Segment } from "~/lib/search/search-snippet";
import { parseQuery } from "~/lib/search/search-terms";
import type { DB } from "~/server/db/db.server";
import { listArticlesByIds } from "./articles-read.server";
import { findMatchingArticleIds } from "~/server/search/search-index.server";

export const SEARCH_PAGE_SIZE = 10;

export type SearchResult = NewsSummary & { titleSegments: Segment[]; snippet: Segment[] };
export type SearchPage = { results: SearchResult[]; hasMore: boolean };

/**
 * One page of articles matching every word of the query (docs/product.md#search; the
 * Arabic forms in app/lib/search/search-terms.ts); a query with nothing searchable in it finds nothing.
 */
export async function searchNews(db: DB, rawQuery: string, { page = 1 }: { page?: number } = {}): Promise<SearchPage> {
  const words = parseQuery(rawQuery);
  if (words.length === 0) return { results: [], hasMore: false };
  const ids = await findMatchingArticleIds(db, words, {
    offset: (page - 1) * SEARCH_PAGE_SIZE,
    limit: SEARCH_PAGE_SIZE + 1,
  });
  const articles = await listArticlesByIds(db, ids.slice(0, SEARCH_PAGE_SIZE));
  const results = articles.map(({ content, ...item }) => ({
    ...item,
    titleSegments: highlight(item.title, words),
    snippet: snippet(content, words),
  }));
  return { results, hasMore: ids.length > SEARCH_PAGE_SIZE };
}
