import { EventEmitter } from "node:events";
import type { BreakingEvent } from "~/lib/breaking";

/** A change to the breaking list, under the id of the outbox event that made it. */
export type LiveEvent = { id: number; event: Exclude<BreakingEvent, { type: "snapshot" }> };

/**
 * How changes to the breaking list reach this process's open streams. The outbox follower publishes
 * on it (site/background.server.ts), in outbox order, whichever process made the change.
 */
export interface LiveEventBus {
  publish(event: LiveEvent): void;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  listenerCount(): number;
}

export function createInProcessBus(): LiveEventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (live) => void emitter.emit("event", live),
    subscribe(listener) {
      emitter.on("event", listener);
      return () => emitter.off("event", listener);
    },
    listenerCount: () => emitter.listenerCount("event"),
  };
}
