import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { canonicalPath, publishArticle } from "../../harness/articles";
import { signedInAs } from "../../harness/accounts";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin = "";
let articlePath = "";

beforeAll(async () => {
  // Long enough that no cached page of this file expires while it runs.
  ({ server, db } = await startServerAndDb({ PAGE_CACHE_SECONDS: "300" }));
  admin = await signedInAs(db, server.site, { email: "chief@example.com", username: "رئيسة التحرير", role: "admin" });
  // The article at its readable address (decision 033): `/news/{id}` answers 301 there.
  articlePath = await canonicalPath(
    db,
    await publishArticle(server.url, { cookie: admin }, { title: "خبر يُضغط مرة واحدة", category: "local" }),
  );
});
afterAll(() => stopServerAndDb({ server, db }));

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** One request through node:http, which (unlike fetch) hands over the body exactly as it was sent. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const decoded = ({ headers, body }: Raw) =>
  headers["content-encoding"] === "br"
    ? brotliDecompressSync(body)
    : headers["content-encoding"] === "gzip"
      ? gunzipSync(body)
      : body;

/** The headers a reader sees, less those that differ by nature between two responses. */
function comparable(headers: Raw["headers"]): Record<string, unknown> {
  const { date: _date, "x-cache": _cache, etag: _etag, connection: _c, "keep-alive": _k, ...rest } = headers;
  // A cached page carries no nonce, so a hit's policy names none: the rest of the policy is the same.
  return { ...rest, "content-security-policy": String(rest["content-security-policy"]).replace(/ 'nonce-[^']+'/, "") };
}

/** A fresh address for the same page, so each test starts from a miss. */
let fresh = 0;
const uncached = (path: string) => `${path}?v=${++fresh}`;

describe("pages sent whole, encoded once", () => {
  it("sends a rendered page in one body with its length, encoded in the client's choice, decoding to the plain page", async () => {
    const path = uncached(articlePath);
    const missBr = await raw(path, { "accept-encoding": "gzip, br" });
    expect(missBr.headers["x-cache"]).toBe("MISS");
    expect(missBr.headers["content-encoding"]).toBe("br");
    expect(missBr.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(missBr.headers["content-length"])).toBe(missBr.body.length);
    expect(String(missBr.headers.vary)).toMatch(/accept-encoding/i);
    const plain = await raw(path, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    expect(plain.body.toString()).toContain("خبر يُضغط مرة واحدة");
    expect(decoded(missBr).equals(plain.body)).toBe(true);
    const gzip = await raw(path, { "accept-encoding": "gzip;q=1, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
    expect(decoded(gzip).equals(plain.body)).toBe(true);
  });

  it("renders every page as one finished document: the doctype first, no boundary left for the browser to fill", async () => {
    const pages: [string, Record<string, string>][] = [
      ["/", {}],
      ["/local", {}],
      [articlePath, {}],
      [`/search?q=${encodeURIComponent("خبر")}`, {}],
      ["/no-such-page", {}],
      // Pages that hydrate whole, rendered through React's stream.
      ["/autenction", {}],
      [articlePath, { cookie: admin }],
    ];
    for (const [path, headers] of pages) {
      const html = (await raw(uncached(path), { "accept-encoding": "identity", ...headers })).body.toString();
      expect(html.startsWith("<!DOCTYPE html><html"), path).toBe(true);
      expect(html.endsWith("</html>"), path).toBe(true);
      // React marks a Suspense boundary it sent unfinished (pending or left to the client) this way.
      expect(html, path).not.toMatch(/<!--\$[?!]-->/);
    }
  });

  it("keeps the copy the first render encoded: a hit sends those very bytes", async () => {
    const path = uncached("/local");
    const miss = await raw(path, { "accept-encoding": "br" });
    const hit = await raw(path, { "accept-encoding": "br" });
    expect([miss.headers["x-cache"], hit.headers["x-cache"]]).toEqual(["MISS", "HIT"]);
    expect(hit.body.equals(miss.body)).toBe(true);
  });

  it("encodes a page rendered without the cache (signed in) as well, once and whole", async () => {
    const signedIn = await raw(articlePath, { "accept-encoding": "br", cookie: admin });
    expect(signedIn.headers["x-cache"]).toBeUndefined();
    expect(signedIn.headers["content-encoding"]).toBe("br");
    expect(Number(signedIn.headers["content-length"])).toBe(signedIn.body.length);
    expect(decoded(signedIn).toString()).toContain("</html>");
  });

  it("gives a cache hit every header the miss had (the policy less the nonce a stored page never carries), and an ETag", async () => {
    for (const encoding of ["br", "gzip", "identity"]) {
      const path = uncached("/");
      const miss = await raw(path, { "accept-encoding": encoding });
      const hit = await raw(path, { "accept-encoding": encoding });
      expect([miss.headers["x-cache"], hit.headers["x-cache"]]).toEqual(["MISS", "HIT"]);
      expect(comparable(hit.headers), encoding).toEqual(comparable(miss.headers));
      expect(miss.headers["content-security-policy"]).toMatch(/'nonce-/);
      expect(hit.headers["content-security-policy"]).not.toMatch(/'nonce-/);
      expect(hit.headers.etag).toMatch(/^".+"$/);
      expect(decoded(hit).equals(decoded(miss))).toBe(true);
    }
  });

  it("sends one cached page in each encoding asked for, each hit with its own encoding and length", async () => {
    const path = uncached("/");
    const plain = await raw(path, { "accept-encoding": "identity" });
    for (const encoding of ["br", "gzip", "identity", "br", "gzip;q=1, br;q=0", "identity"]) {
      const hit = await raw(path, { "accept-encoding": encoding });
      expect(hit.headers["x-cache"], encoding).toBe("HIT");
      expect(hit.headers["content-encoding"], encoding).toBe(
        encoding.startsWith("br") ? "br" : encoding.startsWith("gzip") ? "gzip" : undefined,
      );
      expect(Number(hit.headers["content-length"]), encoding).toBe(hit.body.length);
      expect(decoded(hit).equals(plain.body), encoding).toBe(true);
    }
  });

  it("answers HEAD with the GET's headers and no body, and a matching ETag with 304", async () => {
    const path = uncached(articlePath);
    const headMiss = await raw(path, { "accept-encoding": "br" }, "HEAD");
    expect(headMiss.status).toBe(200);
    expect(String(headMiss.headers["content-type"])).toMatch(/^text\/html/);
    expect(headMiss.body.length).toBe(0);
    const get = await raw(path, { "accept-encoding": "br" });
    const head = await raw(path, { "accept-encoding": "br" }, "HEAD");
    expect(head.headers["x-cache"]).toBe("HIT");
    expect(head.body.length).toBe(0);
    expect(comparable(head.headers)).toEqual(comparable((await raw(path, { "accept-encoding": "br" })).headers));
    expect(head.headers["content-length"]).toBe(String(get.body.length));
    const notModified = await raw(path, { "accept-encoding": "br", "if-none-match": String(head.headers.etag) });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers["content-security-policy"]).toBeDefined();
  });

  it("leaves the event stream unencoded and streaming", async () => {
    const stream = await fetch(`${server.url}/api/breaking/stream`, { headers: { "accept-encoding": "br, gzip" } });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("content-encoding")).toBeNull();
    expect(stream.headers.get("content-length")).toBeNull();
    await stream.body?.cancel();
  });
});
