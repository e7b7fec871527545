/** Paths that are private, per-visitor or endless for a crawler. */
const DISALLOWED_PATHS = ["/dashboard", "/edit-news/", "/autenction", "/api/", "/search"] as const;

export function buildRobotsTxt(baseUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${baseUrl}/sitemap.xml`,
    `Sitemap: ${baseUrl}/news-sitemap.xml`,
    "",
  ].join("\n");
}
