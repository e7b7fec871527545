import { useSyncExternalStore } from "react";
import { applyBreakingEvent, BREAKING_POLL_MS, type BreakingEvent, type BreakingItem } from "~/lib/breaking";
import { followEventStream } from "~/lib/event-stream";
import { poll } from "~/lib/poll";

export type LiveBreaking = {
  items: BreakingItem[];
  /** True once the list came from the live stream (or a poll) rather than the server render. */
  live: boolean;
  /** Items that arrived while the page was open, highlighted for a moment. */
  fresh: ReadonlySet<string>;
};

const NOT_LIVE: LiveBreaking = { items: [], live: false, fresh: new Set() };
const HIGHLIGHT_MS = 6_000;

let state = NOT_LIVE;
const listeners = new Set<() => void>();
let disconnect: (() => void) | undefined;

function setState(update: (current: LiveBreaking) => LiveBreaking) {
  state = update(state);
  for (const listener of listeners) listener();
}

function apply(event: BreakingEvent) {
  setState((current) => {
    const fresh = new Set(current.fresh);
    if (event.type === "created") {
      fresh.add(event.item.id);
      window.setTimeout(
        () => setState((s) => ({ ...s, fresh: new Set([...s.fresh].filter((id) => id !== event.item.id)) })),
        HIGHLIGHT_MS,
      );
    }
    return { items: applyBreakingEvent(current.items, event), live: true, fresh };
  });
}

function pollEvery(): () => void {
  const load = async () => {
    try {
      const response = await poll("/api/breaking");
      const { items } = (await response.json()) as { items: BreakingItem[] };
      apply({ type: "snapshot", items });
    } catch {
      // the next poll tries again
    }
  };
  const timer = window.setInterval(load, BREAKING_POLL_MS);
  return () => window.clearInterval(timer);
}

function stream(): () => void {
  return followEventStream(
    () => "/api/breaking/stream",
    (message) => apply(JSON.parse(message.data) as BreakingEvent),
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  disconnect ??= typeof EventSource === "undefined" ? pollEvery() : stream();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    disconnect?.();
    disconnect = undefined;
  };
}

/**
 * One connection per tab to /api/breaking/stream, shared by every component that shows breaking
 * news (the ticker and the breaking page), even when each is hydrated as its own island.
 */
export function useLiveBreaking(): LiveBreaking {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => NOT_LIVE,
  );
}
