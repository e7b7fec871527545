import { SEARCH_SNIPPET_LENGTH } from "~/lib/constants";
import type { NewsSummary } from "~/lib/news";
import type { DB } from "./db/db.server";
import { PUBLIC, type Audience } from "./audience.server";
import { listLatestMatching } from "./news.server";

export const MAX_QUERY_LENGTH = 200;
const RESULT_LIMIT = 30;

export type SearchResult = NewsSummary & { snippet: string };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A window of the text around the first match, about 100 characters long. */
export function snippetAround(text: string, query: string, length = SEARCH_SNIPPET_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const at = flat.toLowerCase().indexOf(query.toLowerCase());
  const start = at < 0 ? 0 : Math.max(0, at - Math.floor((length - query.length) / 2));
  const piece = flat.slice(start, start + length);
  return `${start > 0 ? "…" : ""}${piece}${start + length < flat.length ? "…" : ""}`;
}

/** SPEC.md §5: a case-insensitive match on title or content; a blank query finds nothing. */
export async function searchNews(db: DB, rawQuery: string, audience: Audience = PUBLIC): Promise<SearchResult[]> {
  const query = rawQuery.trim().slice(0, MAX_QUERY_LENGTH);
  if (!query) return [];
  const rows = await listLatestMatching(db, `%${escapeLike(query)}%`, RESULT_LIMIT, audience);
  return rows.map(({ content, ...item }) => ({ ...item, snippet: snippetAround(content, query) }));
}
