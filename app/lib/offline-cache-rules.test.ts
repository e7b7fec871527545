import { describe, expect, it } from "vitest";
import {
  cacheRuleOf,
  isKeptPage,
  mayFetchAhead,
  MEDIA_CACHE,
  PAGES_CACHE,
  shellCacheName,
  staleCaches,
  storiesToKeep,
  variantsOf,
  type RequestFacts,
} from "./offline-cache-rules";

const origin = "https://akhbar.example";
const get = (path: string, more: Partial<RequestFacts> = {}): RequestFacts => ({
  url: `${origin}${path}`,
  method: "GET",
  mode: "no-cors",
  destination: "",
  range: false,
  ...more,
});

describe("the way each request takes", () => {
  it("pages network first; hashed files and stored pictures from the cache first", () => {
    expect(cacheRuleOf(get("/news/abc/slug", { mode: "navigate", destination: "document" }), origin)).toBe("page");
    expect(cacheRuleOf(get("/", { mode: "navigate" }), origin)).toBe("page");
    expect(cacheRuleOf(get("/assets/root-B0VL5aDO.css", { destination: "style" }), origin)).toBe("asset");
    expect(cacheRuleOf(get("/assets/cairo-arabic-400-normal.woff2", { destination: "font" }), origin)).toBe("asset");
    expect(cacheRuleOf(get("/media/cover-800.webp", { destination: "image" }), origin)).toBe("media");
  });

  it("the API, writes, other sites, byte ranges, videos and the worker itself go to the network untouched", () => {
    expect(cacheRuleOf(get("/api/breaking-stream"), origin)).toBe("network");
    expect(cacheRuleOf(get("/api/push/key"), origin)).toBe("network");
    expect(cacheRuleOf(get("/dashboard", { mode: "navigate", method: "POST" }), origin)).toBe("network");
    expect(
      cacheRuleOf({ ...get("/"), url: "https://www.youtube-nocookie.com/embed/x", mode: "navigate" }, origin),
    ).toBe("network");
    expect(cacheRuleOf(get("/media/clip.mp4", { destination: "video", range: true }), origin)).toBe("network");
    expect(cacheRuleOf(get("/media/clip.mp4", { destination: "video" }), origin)).toBe("network");
    expect(cacheRuleOf(get("/sw.js", { destination: "serviceworker" }), origin)).toBe("network");
  });
});

describe("the pages kept for reading offline", () => {
  const response = (status: number, headers: Record<string, string>, type = "basic") => ({
    ok: status < 300,
    status,
    type,
    headers: new Headers(headers),
  });
  const html = { "Content-Type": "text/html; charset=utf-8" };

  it("are the public ones every reader gets alike", () => {
    expect(isKeptPage(response(200, { ...html, "Cache-Control": "public, max-age=0, s-maxage=30" }))).toBe(true);
  });

  it("are never a signed-in page, an error, a redirect or something else than a page", () => {
    expect(isKeptPage(response(200, { ...html, "Cache-Control": "private, no-store" }))).toBe(false);
    expect(isKeptPage(response(200, { ...html, "Cache-Control": "no-store" }))).toBe(false);
    expect(isKeptPage(response(404, html))).toBe(false);
    expect(isKeptPage(response(0, html, "opaqueredirect"))).toBe(false);
    expect(isKeptPage(response(200, { "Content-Type": "application/json" }))).toBe(false);
  });
});

describe("a new version's activation", () => {
  it("removes the older shells only, and leaves other sites' caches on the same origin alone", () => {
    const names = [shellCacheName("old1"), shellCacheName("new2"), PAGES_CACHE, MEDIA_CACHE, "someone-elses"];
    expect(staleCaches(names, "new2")).toEqual([shellCacheName("old1")]);
  });
});

describe("the stories kept ahead of the reader", () => {
  it("only on a connection that neither asks to save data nor says it is cellular", () => {
    expect(mayFetchAhead(undefined)).toBe(true);
    expect(mayFetchAhead({ saveData: false, type: "wifi" })).toBe(true);
    expect(mayFetchAhead({ saveData: true })).toBe(false);
    expect(mayFetchAhead({ type: "cellular" })).toBe(false);
  });

  it("story pages of this site, at most three, each with its picture at the smallest size", () => {
    const story = (page: string, picture: string | null = null) => ({ page, picture });
    const message = {
      kind: "keep-stories",
      stories: [
        story(`${origin}/news/a1/slug`, `${origin}/media/news-images/a1-1200w.webp`),
        story("/news/a1/slug"),
        story("https://elsewhere.example/news/x"),
        story("/dashboard"),
        story("/news/b2", "https://elsewhere.example/media/news-images/b2-800w.webp"),
        story("/news/c3", "/media/news-images/c3-800w.webp"),
        story("/news/d4"),
      ],
    };
    expect(storiesToKeep(message, origin)).toEqual([
      story("/news/a1/slug", "/media/news-images/a1-400w.webp"),
      story("/news/b2"),
      story("/news/c3", "/media/news-images/c3-400w.webp"),
    ]);
    expect(storiesToKeep({ kind: "other", stories: message.stories }, origin)).toEqual([]);
    expect(storiesToKeep(null, origin)).toEqual([]);
  });

  it("a stored picture's every size, the smallest first, to stand in for one another offline", () => {
    expect(variantsOf("/media/news-images/a1-800w.webp")).toEqual([
      "/media/news-images/a1-400w.webp",
      "/media/news-images/a1-800w.webp",
      "/media/news-images/a1-1200w.webp",
    ]);
    expect(variantsOf("/media/news-images/a1.webp")).toEqual([]);
    expect(variantsOf("/icon-192.png")).toEqual([]);
  });
});
