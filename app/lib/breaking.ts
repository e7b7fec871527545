/** One item of the live breaking-news list, as the page, the ticker and the stream share it. */
export type BreakingItem = {
  id: string;
  title: string;
  /** Its readable address's last segment (articlePath); null in events recorded before the outbox carried it. */
  slug: string | null;
  publishedAt: string;
  /** While its live coverage is open (decision 040). */
  live?: true;
};

export type BreakingEvent =
  | { type: "snapshot"; items: BreakingItem[] }
  | { type: "created"; item: BreakingItem }
  | { type: "updated"; item: BreakingItem }
  | { type: "deleted"; id: string };

export const BREAKING_LIST_SIZE = 50;
export const BREAKING_TICKER_SIZE = 5;
export const BREAKING_POLL_MS = 30_000;

/** Applies one event to a list kept newest first. */
export function applyBreakingEvent(items: BreakingItem[], event: BreakingEvent): BreakingItem[] {
  switch (event.type) {
    case "snapshot":
      return event.items;
    case "created":
      return [event.item, ...items.filter((i) => i.id !== event.item.id)]
        .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))
        .slice(0, BREAKING_LIST_SIZE);
    case "updated":
      // An article's event does not say whether its coverage is live: the item keeps the mark it had.
      return items.some((i) => i.id === event.item.id)
        ? items.map((i) => (i.id === event.item.id ? { ...event.item, ...(i.live ? { live: i.live } : {}) } : i))
        : applyBreakingEvent(items, { ...event, type: "created" });
    case "deleted":
      return items.filter((i) => i.id !== event.id);
  }
}
