import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { clockOffset } from "../../app/server/platform/clock.server";

/**
 * The clock a test's servers read for their clock-driven work (TEST_CLOCK_FILE, clock.server.ts): the
 * real clock, moved forward by the test instead of waited for. Every process given the same file
 * reads the same time.
 */
export type SiteClock = {
  /** To add to the servers' environment. */
  env: { TEST_CLOCK_FILE: string };
  /** The servers' time now, in milliseconds. */
  now: () => number;
  /** Moves the servers' clock forward to `moment` (ms) if it is not there yet; never back. */
  moveTo: (moment: number) => void;
};

export function siteClock(file: string): SiteClock {
  const now = () => Date.now() + clockOffset(file);
  return {
    env: { TEST_CLOCK_FILE: file },
    now,
    moveTo: (moment) => {
      if (moment <= now()) return;
      // Whole, then renamed into place: a server never reads half a number.
      const draft = `${file}.${process.pid}`;
      writeFileSync(draft, String(Math.ceil(moment - Date.now())));
      renameSync(draft, file);
    },
  };
}

/** A clock of its own for the servers a test starts, in a new temporary folder that `remove` deletes. */
export function newSiteClock(): SiteClock & { remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-clock-"));
  return { ...siteClock(path.join(dir, "clock")), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
