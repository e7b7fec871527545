import type { RequestHandler, Response } from "express";

/**
 * How many reads (GET, HEAD) render at once in one process; the others wait their turn in arrival
 * order. More at once only interleaves their renders on the one event loop: each then finishes as
 * late as the slowest, and holds its memory all that time (docs/decisions/015).
 */
export const RENDER_TURNS = 4;

/** Turns handed out first come, first served: at most `limit` held at once. */
export class Turns {
  private held = 0;
  private waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Resolves once the caller holds a turn; it must give it back with `release`. */
  take(): Promise<void> {
    if (this.held < this.limit) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }

  get queued(): number {
    return this.waiting.length;
  }
}

/** Gives the turn back once, when the response starts going out (its render is done) or ends. */
function releaseWhenSending(res: Response, release: () => void): void {
  let released = false;
  const once = () => {
    if (released) return;
    released = true;
    release();
  };
  for (const method of ["write", "end", "flushHeaders"] as const) {
    const original = res[method] as (...args: unknown[]) => unknown;
    res[method] = ((...args: unknown[]) => {
      once();
      return original.apply(res, args);
    }) as never;
  }
  res.once("close", once);
}

/** Reads take a turn before they render; writes (few, and holding the database's lock) never wait. */
export function renderTurns(turns: Turns): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    void turns.take().then(() => {
      if (res.destroyed) return turns.release();
      releaseWhenSending(res, () => turns.release());
      next();
    });
  };
}
