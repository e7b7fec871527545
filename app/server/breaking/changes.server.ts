import type { BreakingEvent, BreakingItem } from "~/lib/breaking";
import type { ArticleState, OutboxEvent } from "~/server/outbox/outbox.server";

/** A change to the breaking list, told under the id of the outbox event that made it. */
export type BreakingChange = Exclude<BreakingEvent, { type: "snapshot" }>;

function visible(state: ArticleState | null): BreakingItem | null {
  if (!state || state.category !== "breaking" || state.status !== "published") return null;
  // Events recorded before migration 008 carry no publishedAt.
  return {
    id: state.id,
    title: state.title,
    slug: state.slug ?? null,
    publishedAt: state.publishedAt ?? state.createdAt,
  };
}

/** What an outbox event changed in the public breaking list, if anything, under the event's id. */
export function breakingChange({ id, before, after }: OutboxEvent): { id: number; event: BreakingChange } | null {
  const was = visible(before);
  const is = visible(after);
  if (!was && is) return { id, event: { type: "created", item: is } };
  if (was && is) return { id, event: { type: "updated", item: is } };
  if (was && !is) return { id, event: { type: "deleted", id: was.id } };
  return null;
}
