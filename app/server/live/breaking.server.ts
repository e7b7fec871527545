import { BREAKING_LIST_SIZE, type BreakingItem } from "~/lib/breaking";
import type { NewsStatus } from "~/lib/news";
import type { Category } from "~/lib/categories";
import type { DB } from "~/server/db/db.server";
import { publishLiveEvent } from "./live-events.server";
import { listLatest } from "~/server/news/news.server";

/** The public breaking list, newest first. */
export async function listBreaking(db: DB, limit = BREAKING_LIST_SIZE): Promise<BreakingItem[]> {
  const items = await listLatest(db, { category: "breaking", limit });
  return items.map(({ id, title, createdAt }) => ({ id, title, createdAt }));
}

export type ArticleState = { id: string; title: string; createdAt: string; category: Category; status: NewsStatus };

function visible(state: ArticleState | null): BreakingItem | null {
  if (!state || state.category !== "breaking" || state.status !== "published") return null;
  return { id: state.id, title: state.title, createdAt: state.createdAt };
}

/** Tells every open breaking stream what a write changed in the public breaking list, if anything. */
export function announceBreakingChange(before: ArticleState | null, after: ArticleState | null): void {
  const was = visible(before);
  const is = visible(after);
  if (!was && is) publishLiveEvent({ type: "created", item: is });
  else if (was && is) publishLiveEvent({ type: "updated", item: is });
  else if (was && !is) publishLiveEvent({ type: "deleted", id: was.id });
}
