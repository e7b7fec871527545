import { describe, expect, it } from "vitest";
import { beirutWallTimeToIso, isoToBeirutWallTime, parsePublishAt } from "./publish-time";

describe("publish times", () => {
  it("reads the form's wall time in Beirut, winter (UTC+2) and summer (UTC+3)", () => {
    expect(beirutWallTimeToIso("2026-11-22T18:30")).toBe("2026-11-22T16:30:00.000Z");
    expect(beirutWallTimeToIso("2026-07-01T06:00")).toBe("2026-07-01T03:00:00.000Z");
  });

  it("writes a moment back as the input's value", () => {
    expect(isoToBeirutWallTime("2026-11-22T16:30:00.000Z")).toBe("2026-11-22T18:30");
    expect(isoToBeirutWallTime("2026-07-01T03:00:00.000Z")).toBe("2026-07-01T06:00");
  });

  it("takes the API's ISO 8601 with its zone", () => {
    expect(parsePublishAt("2026-11-22T18:30:00+02:00")).toBe("2026-11-22T16:30:00.000Z");
    expect(parsePublishAt("2026-11-22T16:30:00.000Z")).toBe("2026-11-22T16:30:00.000Z");
  });

  it("refuses what is not a time", () => {
    for (const bad of ["", "tomorrow", "2026-13-40T99:99", "2026-11-22", "2026-11-22T18:30+2"]) expect(parsePublishAt(bad)).toBeNull();
  });
});
