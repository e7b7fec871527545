import { describe, expect, it } from "vitest";
import { buildRobotsTxt } from "./robots.server";

describe("buildRobotsTxt", () => {
  it("allows the public site, keeps crawlers out of private paths and names both sitemaps", () => {
    const lines = buildRobotsTxt("https://akhbar.example").split("\n");
    expect(lines.slice(0, 2)).toEqual(["User-agent: *", "Allow: /"]);
    for (const path of ["/dashboard", "/edit-news/", "/autenction", "/api/", "/search"])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain("Sitemap: https://akhbar.example/sitemap.xml");
    expect(lines).toContain("Sitemap: https://akhbar.example/news-sitemap.xml");
  });
});
