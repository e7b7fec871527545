import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";

/**
 * A first-come, first-served queue in front of the pages the server renders (docs/decisions/026): at
 * most `slots` GET or HEAD requests between the renderer and their head going out (a whole page's head
 * goes out with its encoded body), or until the client leaves; the rest wait in order of arrival.
 * Writes pass: their bodies come at the client's pace, and they are few.
 */
export type RenderQueue = ((req: Request, res: Response, next: NextFunction) => void) & {
  /** Requests in a slot now. */
  busy(): number;
  /** Requests waiting for a slot now. */
  waiting(): number;
};

/** Calls `release` once: when the response's head is written, or when it closes first. */
function onHeadOrClose(res: ServerResponse, release: () => void): void {
  let held = true;
  const done = () => {
    if (!held) return;
    held = false;
    release();
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    done();
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
  res.once("close", done);
}

export function renderQueue(slots: number): RenderQueue {
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`renderQueue needs at least one slot, not ${slots}`);
  let busy = 0;
  const waiting: (() => void)[] = [];
  let starting = false;

  // Not re-entered: an answer finished within admit() frees its slot to this loop, not to a nested one.
  const startWaiting = () => {
    if (starting) return;
    starting = true;
    try {
      while (busy < slots && waiting.length > 0) waiting.shift()!();
    } finally {
      starting = false;
    }
  };

  const queue = ((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const admit = () => {
      // A client that left while it waited is not rendered for.
      if (req.socket.destroyed) return;
      busy++;
      onHeadOrClose(res, () => {
        busy--;
        startWaiting();
      });
      next();
    };
    waiting.push(admit);
    startWaiting();
  }) as RenderQueue;
  queue.busy = () => busy;
  queue.waiting = () => waiting.length;
  return queue;
}
