import { describe, expect, it } from "vitest";
import { focalClassOf, focalPointOf, libraryFilterFromUrl } from "./media-library";

describe("the media library's values", () => {
  it("reads a search from its URL, dropping days that do not exist and control characters", () => {
    const filter = (query: string) => libraryFilterFromUrl(new URL(`https://example.org/dashboard/media?${query}`));
    expect(filter("q=%20مرفأ%00%20&uploader=سلمى&from=2026-02-28&to=2026-12-31")).toEqual({
      q: "مرفأ",
      uploader: "سلمى",
      from: "2026-02-28",
      to: "2026-12-31",
    });
    for (const bad of ["2026-02-30", "2026-13-01", "0000-01-01", "2026-1-1", "١٢"])
      expect(filter(`from=${bad}&to=${bad}`)).toMatchObject({ from: null, to: null });
  });

  it("keeps a focal point in 0–1 and makes its crop class in tenths, none for the centre", () => {
    expect(focalPointOf("0.25", "1")).toEqual({ x: 0.25, y: 1 });
    for (const [x, y] of [
      ["1.5", "0"],
      ["-0", "0"],
      ["NaN", "0"],
      ["", "0"],
      ["0x1", "0"],
    ])
      expect(focalPointOf(x, y)).toBeNull();
    expect(focalClassOf({ x: 0.5, y: 0.85 })).toBe("object-[50%_90%]");
    expect(focalClassOf({ x: 0.52, y: 0.48 })).toBe("");
    expect(focalClassOf(null)).toBe("");
  });
});
