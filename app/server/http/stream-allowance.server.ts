import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";

/*
 * How many event streams one client address holds, counted for the whole instance (decision 012): in a
 * cluster the primary keeps the count and a worker asks it over the cluster's IPC channel before it opens
 * a stream; a lone process counts by itself. Readers' streams (breaking news, live coverage) and the
 * newsroom's (presence on an edit form) are counted apart, so readers can never use up the newsroom's.
 */

export type StreamPool = "readers" | "newsroom";

type Claim = { akhbar: "stream-claim"; id: string; key: string; limit: number };
type Granted = { akhbar: "stream-granted"; id: string; granted: boolean };
type Release = { akhbar: "stream-release"; key: string };

/** How long a worker waits for the primary's answer before it refuses the stream. */
const ANSWER_WITHIN_MS = 5_000;

const keyOf = (pool: StreamPool, address: string) => `${pool} ${address}`;

/** Counts by key, each kept while above zero. */
function createCounts() {
  const counts = new Map<string, number>();
  return {
    take(key: string, limit: number): boolean {
      const held = counts.get(key) ?? 0;
      if (held >= limit) return false;
      counts.set(key, held + 1);
      return true;
    },
    /** Gives back `times` of `key`; false when none was held. */
    give(key: string, times = 1): boolean {
      const held = counts.get(key) ?? 0;
      if (held - times > 0) counts.set(key, held - times);
      else counts.delete(key);
      return held > 0;
    },
    entries: () => counts.entries(),
  };
}

const isMessage = <T extends { akhbar: string }>(message: unknown, kind: T["akhbar"]): message is T =>
  typeof message === "object" && message !== null && (message as { akhbar?: unknown }).akhbar === kind;

/**
 * In the cluster's primary: answers the workers' claims against one count for the instance, and gives
 * back what a worker held when it exits.
 */
export function shareStreamAllowances(): void {
  const counts = createCounts();
  /** What each worker holds, given back when it exits. */
  const heldBy = new Map<number, ReturnType<typeof createCounts>>();
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (isMessage<Claim>(message, "stream-claim")) {
      const granted = counts.take(message.key, message.limit);
      if (granted) {
        const held = heldBy.get(worker.id) ?? createCounts();
        heldBy.set(worker.id, held);
        held.take(message.key, Infinity);
      }
      const answer: Granted = { akhbar: "stream-granted", id: message.id, granted };
      if (worker.isConnected()) worker.send(answer);
    } else if (isMessage<Release>(message, "stream-release") && heldBy.get(worker.id)?.give(message.key)) {
      counts.give(message.key);
    }
  });
  cluster.on("exit", (worker: Worker) => {
    for (const [key, times] of heldBy.get(worker.id)?.entries() ?? []) counts.give(key, times);
    heldBy.delete(worker.id);
  });
}

/** Where a process takes and gives back its clients' streams. */
type Allowances = { claim: (key: string, limit: number) => Promise<boolean>; release: (key: string) => void };

/** A worker's side: claims answered by the primary. */
function askPrimary(): Allowances {
  // Ids unique to this asker: another site in the same worker hears the primary's answers too.
  const asker = randomUUID();
  let nextId = 0;
  const waiting = new Map<string, (granted: boolean) => void>();
  process.on("message", (message: unknown) => {
    if (!isMessage<Granted>(message, "stream-granted")) return;
    waiting.get(message.id)?.(message.granted);
    waiting.delete(message.id);
  });
  const release = (key: string) => {
    const message: Release = { akhbar: "stream-release", key };
    if (process.connected) process.send?.(message);
  };
  return {
    claim(key: string, limit: number): Promise<boolean> {
      const id = `${asker} ${++nextId}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          // Too late to use: a grant that still comes is given back at once.
          waiting.set(id, (granted) => granted && release(key));
          resolve(false);
        }, ANSWER_WITHIN_MS);
        waiting.set(id, (granted) => {
          clearTimeout(timer);
          resolve(granted);
        });
        const message: Claim = { akhbar: "stream-claim", id, key, limit };
        if (process.connected) process.send?.(message);
        else {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(false);
        }
      });
    },
    release,
  };
}

/** A lone process's side: its own count. */
function countHere(): Allowances {
  const counts = createCounts();
  return {
    claim: async (key: string, limit: number) => counts.take(key, limit),
    release: (key: string) => {
      counts.give(key);
    },
  };
}

/** Where this process takes and gives back its clients' streams, by pool and address; one per site. */
export type AddressAllowances = {
  /** Takes one of `address`'s `limit` streams of `pool` on this instance; false when it holds them all. */
  claim: (pool: StreamPool, address: string, limit: number) => Promise<boolean>;
  /** Gives back a stream `claim` granted. */
  release: (pool: StreamPool, address: string) => void;
};

/** A worker asks the cluster's primary (from its first claim on), a lone process counts by itself. */
export function addressAllowances(): AddressAllowances {
  let allowances: Allowances | undefined;
  const here = () => (allowances ??= cluster.isWorker && process.send ? askPrimary() : countHere());
  return {
    claim: (pool, address, limit) => here().claim(keyOf(pool, address), limit),
    release: (pool, address) => here().release(keyOf(pool, address)),
  };
}
