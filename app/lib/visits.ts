import { parseStringList } from "./json";
import { READER_ID_KEY, VISITED_NEWS_KEY, VISITED_SITES_KEY } from "./constants";
import { UTM_PARAMETER } from "./reader-classes";

function readList(key: string): string[] {
  return parseStringList(localStorage.getItem(key) ?? "[]");
}

/** The browser's own random id, made once and kept in localStorage (no cookie): it names no person. */
function readerId(): string {
  const kept = localStorage.getItem(READER_ID_KEY);
  if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const made = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  localStorage.setItem(READER_ID_KEY, made);
  return made;
}

async function post(url: string): Promise<boolean> {
  const body = {
    reader: readerId(),
    referrer: document.referrer.slice(0, 2048),
    utm: (new URLSearchParams(location.search).get(UTM_PARAMETER) ?? "").slice(0, 64),
  };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    });
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
