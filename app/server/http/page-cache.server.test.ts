import { describe, expect, it } from "vitest";
import { PageCache, type Lookup, type RenderedPage } from "./page-cache.server";

const LIFETIME = 10_000;
const html = (text: string): RenderedPage => ({
  status: 200,
  headers: { "content-type": "text/html" },
  body: Buffer.from(text),
});

function expectKind<K extends Lookup["kind"]>(lookup: Lookup, kind: K): Extract<Lookup, { kind: K }> {
  expect(lookup.kind).toBe(kind);
  return lookup as Extract<Lookup, { kind: K }>;
}

describe("PageCache", () => {
  it("lets one request render a missing page while the others wait for its copy", async () => {
    const cache = new PageCache(LIFETIME);
    const first = expectKind(cache.lookup("/", 0), "render");
    const second = expectKind(cache.lookup("/", 1), "wait");
    const third = expectKind(cache.lookup("/", 2), "wait");
    expect(second.rendered).toBe(third.rendered);
    first.done(html("home"), 5);
    await second.rendered;
    expect(cache.get("/", 6)?.body.toString()).toBe("home");
    expect(expectKind(cache.lookup("/", 7), "hit").page.body.toString()).toBe("home");
  });

  it("past its lifetime, sends the old copy while one request renders the new one", () => {
    const cache = new PageCache(LIFETIME);
    expectKind(cache.lookup("/", 0), "render").done(html("old"), 0);
    const refresh = expectKind(cache.lookup("/", LIFETIME + 1), "render");
    expect(expectKind(cache.lookup("/", LIFETIME + 2), "hit").page.body.toString()).toBe("old");
    refresh.done(html("new"), LIFETIME + 3);
    expect(expectKind(cache.lookup("/", LIFETIME + 4), "hit").page.body.toString()).toBe("new");
  });

  it("never sends a copy more than a minute past its lifetime", () => {
    const cache = new PageCache(LIFETIME);
    expectKind(cache.lookup("/", 0), "render").done(html("old"), 0);
    expectKind(cache.lookup("/", LIFETIME + 60_001), "render");
    expectKind(cache.lookup("/", LIFETIME + 60_002), "wait");
  });

  it("does not keep a page whose render began before an article write emptied the cache", async () => {
    const cache = new PageCache(LIFETIME);
    const before = expectKind(cache.lookup("/", 0), "render");
    const waiting = expectKind(cache.lookup("/", 1), "wait");
    cache.clear();
    before.done(html("before the write"), 2);
    await waiting.rendered;
    expect(cache.get("/", 3)).toBeUndefined();
    expectKind(cache.lookup("/", 4), "render");
  });

  it("after a render that stored nothing, the next request renders", async () => {
    const cache = new PageCache(LIFETIME);
    const failed = expectKind(cache.lookup("/news/x", 0), "render");
    const waiting = expectKind(cache.lookup("/news/x", 1), "wait");
    failed.done();
    failed.done(html("too late"));
    await waiting.rendered;
    expect(cache.get("/news/x", 2)).toBeUndefined();
    expectKind(cache.lookup("/news/x", 3), "render");
  });

  it("keeps at most its size in pages, dropping the oldest stored", () => {
    const cache = new PageCache(LIFETIME, 2);
    for (const key of ["/a", "/b", "/c"]) expectKind(cache.lookup(key, 0), "render").done(html(key), 0);
    expect(cache.size).toBe(2);
    expect(cache.get("/a", 1)).toBeUndefined();
    expect(cache.get("/c", 1)?.body.toString()).toBe("/c");
  });
});
