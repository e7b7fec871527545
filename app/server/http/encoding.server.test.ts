import { describe, expect, it } from "vitest";
import { isEncodableType, preferredEncoding } from "./encoding.server";

describe("the encoding a client gets", () => {
  it("prefers brotli, then gzip, and honours a refusal by q=0", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBeUndefined();
    expect(preferredEncoding("identity")).toBeUndefined();
    expect(preferredEncoding("BR")).toBe("br");
    expect(preferredEncoding("")).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });

  it("gives each Accept-Encoding the same answer every time, past the few dozen answers it keeps", () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 100; i++) {
        expect(preferredEncoding(`gzip;q=0.${(i % 9) + 1}, br;q=${i % 2}`)).toBe(i % 2 ? "br" : "gzip");
        expect(preferredEncoding(`br;q=0, gzip;q=0, x-${i}`)).toBeUndefined();
      }
    }
  });

  it("encodes text and never an event stream or an image", () => {
    for (const type of [
      "text/html; charset=utf-8",
      "application/json",
      "application/rss+xml",
      "application/xml",
      "text/javascript",
      "image/svg+xml",
    ])
      expect(isEncodableType(type), type).toBe(true);
    for (const type of ["text/event-stream", "image/webp", "video/mp4", "application/octet-stream", ""])
      expect(isEncodableType(type), type).toBe(false);
  });
});
