import { describe, expect, it } from "vitest";
import { frameOf, NEUTRAL_SETTINGS } from "~/lib/site-settings";
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

  it("shows the year of the request in the footer, keeps each region per site frame, and renders again with a new frame", async () => {
    const site = frameOf(NEUTRAL_SETTINGS, true);
    const first = await shellRegions(site, "/local", new Date("2030-06-01T00:00:00Z"));
    expect(first.footer).toContain("© 2030");
    expect((await shellRegions(site, "/local", new Date("2031-01-02T00:00:00Z"))).footer).toContain("© 2031");
    expect(first.navbar).toContain('aria-current="page" href="/local"');
    expect(first.navbar).not.toContain("<link");
    expect((await shellRegions(site, "/local")).navbar).toBe(first.navbar);
    const renamed = { ...site, name: "اسم جديد" };
    const after = await shellRegions(renamed, "/local");
    expect(after.navbar).not.toBe(first.navbar);
    expect(after.navbar).toContain("اسم جديد");
    expect(after.footer).toContain("اسم جديد");
  });
});
