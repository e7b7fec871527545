import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clockOf, movableClock, systemClock } from "./clock.server";

const dir = mkdtempSync(path.join(tmpdir(), "akhbar-clock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the site's clock", () => {
  it("is the real clock unless TEST_CLOCK_FILE is set", () => {
    expect(clockOf({ testClockFile: null })).toBe(systemClock);
    const before = Date.now();
    expect(systemClock.now().getTime()).toBeGreaterThanOrEqual(before);
  });

  it("runs ahead of the real clock by the milliseconds in its file, read at every call", () => {
    const file = path.join(dir, "clock");
    const clock = movableClock(file);
    const ahead = () => clock.now().getTime() - Date.now();
    expect(Math.abs(ahead())).toBeLessThan(1_000);
    writeFileSync(file, "3600000\n");
    expect(ahead()).toBeGreaterThan(3_599_000);
    writeFileSync(file, "soon");
    expect(() => clock.now()).toThrow(/TEST_CLOCK_FILE/);
  });
});
