import { createContext, useContext, useEffect, useState } from "react";
import { applyBreakingEvent, BREAKING_POLL_MS, type BreakingEvent, type BreakingItem } from "~/lib/breaking";

type LiveBreaking = {
  items: BreakingItem[];
  /** True once the list came from the live stream (or a poll) rather than the server render. */
  live: boolean;
  /** Items that arrived while the page was open, highlighted for a moment. */
  fresh: ReadonlySet<string>;
};

const LiveBreakingContext = createContext<LiveBreaking>({ items: [], live: false, fresh: new Set() });
const HIGHLIGHT_MS = 6_000;
const REOPEN_MS = 5_000;

/** One connection per tab to /api/breaking/stream, shared by the ticker and the breaking page. */
export function LiveBreakingProvider({ initial, children }: { initial: BreakingItem[]; children: React.ReactNode }) {
  const [state, setState] = useState<LiveBreaking>({ items: initial, live: false, fresh: new Set() });

  useEffect(() => {
    const apply = (event: BreakingEvent) =>
      setState((current) => {
        const fresh = new Set(current.fresh);
        if (event.type === "created") {
          fresh.add(event.item.id);
          window.setTimeout(() => setState((s) => ({ ...s, fresh: new Set([...s.fresh].filter((id) => id !== event.item.id)) })), HIGHLIGHT_MS);
        }
        return { items: applyBreakingEvent(current.items, event), live: true, fresh };
      });

    if (typeof EventSource === "undefined") {
      const poll = async () => {
        try {
          const response = await fetch("/api/breaking");
          const { items } = (await response.json()) as { items: BreakingItem[] };
          apply({ type: "snapshot", items });
        } catch {
          // the next poll tries again
        }
      };
      const timer = window.setInterval(poll, BREAKING_POLL_MS);
      return () => window.clearInterval(timer);
    }

    let source: EventSource | null = null;
    let reopen: number | undefined;
    const connect = () => {
      source = new EventSource("/api/breaking/stream");
      source.onmessage = (message: MessageEvent<string>) => apply(JSON.parse(message.data) as BreakingEvent);
      source.onerror = () => {
        // The browser retries by itself unless the server refused the stream (e.g. 503).
        if (source?.readyState === EventSource.CLOSED) reopen = window.setTimeout(connect, REOPEN_MS);
      };
    };
    connect();
    return () => {
      window.clearTimeout(reopen);
      source?.close();
    };
  }, []);

  return <LiveBreakingContext.Provider value={state}>{children}</LiveBreakingContext.Provider>;
}

export function useLiveBreaking(): LiveBreaking {
  return useContext(LiveBreakingContext);
}
