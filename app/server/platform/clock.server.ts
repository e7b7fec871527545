import { readFileSync } from "node:fs";
import type { Config } from "./config.server";

/** Where the server's clock-driven work (the scheduler's claim, the trash purge) reads "now". */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/**
 * The real clock moved forward by the milliseconds written in `file` (a whole number; no file: not
 * moved), read at every call so that a test moves every process of a site at once. Test-only:
 * config.server.ts accepts TEST_CLOCK_FILE only for a server on this machine.
 */
export function movableClock(file: string): Clock {
  return { now: () => new Date(Date.now() + clockOffset(file)) };
}

/** How far ahead of the real clock `file` moves time, in milliseconds. */
export function clockOffset(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  if (!/^\d+$/.test(text.trim()))
    throw new Error(`${file} (TEST_CLOCK_FILE) holds no whole number of milliseconds: ${JSON.stringify(text)}`);
  return Number(text.trim());
}

export function clockOf(cfg: Pick<Config, "testClockFile">): Clock {
  return cfg.testClockFile ? movableClock(cfg.testClockFile) : systemClock;
}
