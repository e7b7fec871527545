import { describe, expect, it } from "vitest";
import { ReadCache } from "~/server/platform/read-cache.server";
import { navbarAddress, shellRegions } from "./shell-regions.server";

describe("shell regions", () => {
  it("renders the navbar at the address whose menu links it marks", () => {
    expect(navbarAddress("/")).toBe("/");
    expect(navbarAddress("/local")).toBe("/local");
    expect(navbarAddress("/LOCAL")).toBe("/local");
    expect(navbarAddress("/local/x")).toBe("/local/");
    expect(navbarAddress("/news/abc")).toBe("/news");
    expect(navbarAddress("/localx")).toBe("/news");
  });

  it("shows the year of the request in the footer, and renders again once the cache is emptied", async () => {
    const cache = new ReadCache();
    const first = await shellRegions(cache, "/local", new Date("2030-06-01T00:00:00Z"));
    expect(first.footer).toContain("© 2030");
    expect((await shellRegions(cache, "/local", new Date("2031-01-02T00:00:00Z"))).footer).toContain("© 2031");
    expect(first.navbar).toContain('aria-current="page" href="/local"');
    expect(first.navbar).not.toContain("<link");
    expect((await shellRegions(cache, "/local")).navbar).toBe(first.navbar);
    cache.clear();
    expect((await shellRegions(cache, "/local")).navbar).toBe(first.navbar);
  });
});
