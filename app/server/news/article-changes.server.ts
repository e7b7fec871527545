import { announceBreakingChange, type ArticleState } from "~/server/live/breaking.server";
import { pageCache } from "~/server/http/site-page-cache.server";

/** Everything that must follow a committed article write: fresh pages and the live breaking list. */
export function articleChanged(before: ArticleState | null, after: ArticleState | null): void {
  pageCache.clear();
  announceBreakingChange(before, after);
}
