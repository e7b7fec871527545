import { expect, it } from "vitest";
import { parseRange } from "./byte-range.server";

it("reads one byte range: from-to, open-ended, suffix", () => {
  expect(parseRange("bytes=0-99")).toEqual({ start: 0, end: 99 });
  expect(parseRange("bytes=100-")).toEqual({ start: 100 });
  expect(parseRange("bytes=-500")).toEqual({ suffix: 500 });
  expect(parseRange("bytes=-0")).toEqual({ suffix: 0 });
  expect(parseRange(" bytes = 5 - 9 ")).toEqual({ start: 5, end: 9 });
});

it("ignores what it may ignore, so the whole file is sent: no header, other units, several ranges, nonsense", () => {
  for (const header of [
    undefined,
    "",
    "items=0-5",
    "bytes=0-5,10-20",
    "bytes=9-5",
    "bytes=-",
    "bytes=a-b",
    "bytes=1e3-",
    "bytes=0x10-",
    `bytes=${"9".repeat(16)}-`,
  ]) {
    expect(parseRange(header), String(header)).toBeNull();
  }
});
