import { describe, expect, it } from "vitest";
import { isInternalHref, isSafeHref } from "./rich-text/document";
import { safeRedirect, sameOriginPath } from "./same-origin-path";
import { LEAVING, STAYING } from "../../tests/support/redirect-targets";

describe("sameOriginPath", () => {
  it.each(LEAVING)("refuses %j", (target) => {
    expect(sameOriginPath(target)).toBeNull();
    expect(safeRedirect(target)).toBe("/");
  });

  it.each(STAYING)("keeps %j as %j", (target, path) => {
    expect(sameOriginPath(target)).toBe(path);
    expect(sameOriginPath(path)).toBe(path);
  });

  it("refuses what is not a string", () => {
    for (const value of [null, undefined, 42, {}, ["/x"]]) expect(sameOriginPath(value)).toBeNull();
  });

  it("has at least forty spellings in its table", () => {
    expect(LEAVING.length + STAYING.length).toBeGreaterThanOrEqual(40);
  });
});

describe("links in the article body", () => {
  it("are internal only when they stay on the site, and a path that leaves it is no link at all", () => {
    for (const href of LEAVING.filter((target) => target.startsWith("/"))) {
      expect(isInternalHref(href), href).toBe(false);
      expect(isSafeHref(href), href).toBe(false);
    }
    for (const [href] of STAYING) expect(isInternalHref(href), href).toBe(true);
    expect(isInternalHref("https://evil.example/")).toBe(false);
    expect(isSafeHref("https://evil.example/")).toBe(true);
  });
});
