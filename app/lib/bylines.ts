/** Who a story is credited to: its byline text for wire and guest stories, else its author with their page. */
export type Credit = { name: string; authorPath: string | null };

export const BYLINE_MAX = 80;

/** The author page of `username` (a user's name, Arabic or not). */
export function authorPath(username: string): string {
  return `/author/${encodeURIComponent(username)}`;
}

/** The byline text wins, and then there is no author link; an article with neither has no credit. */
export function creditOf(byline: string | null, authorName: string | null): Credit | null {
  if (byline) return { name: byline, authorPath: null };
  if (authorName) return { name: authorName, authorPath: authorPath(authorName) };
  return null;
}
