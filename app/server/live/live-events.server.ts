import { EventEmitter } from "node:events";
import type { BreakingEvent } from "~/lib/breaking";

export type LiveEvent = { id: number; event: Exclude<BreakingEvent, { type: "snapshot" }> };

/**
 * How changes to the breaking list reach every open stream. This in-process bus serves one server;
 * a PostgreSQL LISTEN/NOTIFY bus can implement the same interface for several.
 */
export interface LiveEventBus {
  publish(event: LiveEvent["event"]): LiveEvent;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** Events after the given id, or null when they are no longer all kept. */
  since(lastId: number): LiveEvent[] | null;
  latestId(): number;
  listenerCount(): number;
}

const KEPT_EVENTS = 500;

export function createInProcessBus(): LiveEventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const recent: LiveEvent[] = [];
  let lastId = 0;
  return {
    publish(event) {
      const live = { id: ++lastId, event };
      recent.push(live);
      if (recent.length > KEPT_EVENTS) recent.shift();
      emitter.emit("event", live);
      return live;
    },
    subscribe(listener) {
      emitter.on("event", listener);
      return () => emitter.off("event", listener);
    },
    since(id) {
      if (id > lastId) return null;
      const oldestKept = recent[0]?.id ?? lastId + 1;
      if (id < oldestKept - 1) return null;
      return recent.filter((e) => e.id > id);
    },
    latestId: () => lastId,
    listenerCount: () => emitter.listenerCount("event"),
  };
}

let bus: LiveEventBus | undefined;

export function liveEvents(): LiveEventBus {
  bus ??= createInProcessBus();
  return bus;
}

export function publishLiveEvent(event: LiveEvent["event"]): LiveEvent {
  return liveEvents().publish(event);
}
