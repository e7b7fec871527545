/**
 * Who a story is credited to: its byline text for wire and guest stories, else its author (whose page
 * is `authorPath(name)`; the path is not carried, to keep island props small).
 */
export type Credit = { name: string; isAuthor: boolean };

export const BYLINE_MAX = 80;

/** The author page of `username` (a user's name, Arabic or not). */
export function authorPath(username: string): string {
  return `/author/${encodeURIComponent(username)}`;
}

/** The byline text wins, and then there is no author link; an article with neither has no credit. */
export function creditOf(byline: string | null, authorName: string | null): Credit | null {
  if (byline) return { name: byline, isAuthor: false };
  if (authorName) return { name: authorName, isAuthor: true };
  return null;
}
