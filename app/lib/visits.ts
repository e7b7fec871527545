import { parseStringList } from "./json";
import { VISITED_NEWS_KEY, VISITED_SITES_KEY } from "./constants";

function readList(key: string): string[] {
  return parseStringList(localStorage.getItem(key) ?? "[]");
}

async function post(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: "POST" });
    await response.text();
    return response.ok;
  } catch {
    return false;
  }
}

/** Counts one visit per browser per article (docs/product.md#visits: the visitedNews list). */
export async function countArticleVisit(id: string): Promise<void> {
  if (readList(VISITED_NEWS_KEY).includes(id)) return;
  if (await post(`/api/news/${encodeURIComponent(id)}/visit`)) {
    localStorage.setItem(VISITED_NEWS_KEY, JSON.stringify([...readList(VISITED_NEWS_KEY), id]));
  }
}

/** Counts the site visit once per browser (docs/product.md#visits: the visitedSites marker). */
export async function countSiteVisit(): Promise<void> {
  if (localStorage.getItem(VISITED_SITES_KEY)) return;
  if (await post("/api/site-visit")) localStorage.setItem(VISITED_SITES_KEY, "true");
}
