import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE } from "~/server/platform/cache-control.server";
import { pageCacheHits, pageCacheMiddleware } from "./page-cache-middleware.server";
import { PageCache } from "./page-cache.server";
import { createCompressionThreads } from "./encoding.server";
import { cspNonceOf, securityHeaders } from "./security-headers.server";
import { wholeResponses } from "./whole-response.server";

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let base = "";
const cache = new PageCache(60_000);
const compression = createCompressionThreads();

/** The HTTP layer's order (server.ts): security headers, whole responses, then the page cache, then the pages. */
beforeAll(async () => {
  const app = express();
  app.use(securityHeaders({ baseUrl: "http://localhost", inlineScripts: [], development: false }));
  app.use(wholeResponses(compression));
  app.use(pageCacheMiddleware(cache));
  const page = (body: string) => `<!DOCTYPE html><html><body>${body}</body></html>`;
  app.get(
    "/long",
    (_req, res) =>
      void res
        .set("Cache-Control", CACHE.publicPage)
        .type("html")
        .send(page("<p>خبر طويل</p>".repeat(400))),
  );
  app.get(
    "/reader",
    (_req, res) =>
      void res.set("Cache-Control", CACHE.publicPage).type("html").send(page("<script type=module>go()</script>")),
  );
  app.get(
    "/nonced",
    (_req, res) =>
      void res
        .set("Cache-Control", CACHE.publicPage)
        .type("html")
        .send(page(`<script nonce="${cspNonceOf(res)}">go()</script>`)),
  );
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await compression.close();
});

const nonceOfPolicy = (response: Response) =>
  /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("the page cache under the Content-Security-Policy", () => {
  it("stores a page without a nonce and serves each copy with a policy of its own", async () => {
    const first = await fetch(`${base}/reader`);
    const second = await fetch(`${base}/reader`);
    expect([first.headers.get("x-cache"), second.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
    expect(nonceOfPolicy(second)).toBeDefined();
    expect(nonceOfPolicy(second)).not.toBe(nonceOfPolicy(first));
  });

  it("never stores a page carrying its response's nonce, so no reader gets a nonce their policy does not name", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/nonced`);
      expect(response.headers.get("x-cache")).toBe("MISS");
      expect(await response.text()).toContain(`nonce="${nonceOfPolicy(response)}"`);
    }
  });
});

describe("the security headers' nonces", () => {
  it("are new for every response, past the batch of random bytes they are drawn from", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const response = await fetch(`${base}/reader`);
      await response.body?.cancel();
      nonces.add(nonceOfPolicy(response) ?? "");
    }
    expect(nonces.size).toBe(300);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("the page cache and the response's encoding", () => {
  it("keeps the encoded copy the render sent, so the page is encoded once for the cache", async () => {
    const response = await fetch(`${base}/long`, { headers: { "accept-encoding": "br" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    const plain = await response.text();
    const stored = cache.get("/long");
    expect(stored?.encoded.br).toBeDefined();
    expect(stored?.encoded.gzip).toBeUndefined();
    expect(brotliDecompressSync(stored!.encoded.br!).toString()).toBe(plain);
    expect(stored!.body.toString()).toBe(plain);
  });
});

describe("cache hits before Express", () => {
  it("answer each Accept-Encoding with its own encoding, length and body, the same every time, and HEAD without a body", async () => {
    const hits = new PageCache(60_000);
    const body = Buffer.from(`<!DOCTYPE html><html><body>${"<p>خبر</p>".repeat(300)}</body></html>`);
    const lookup = hits.lookup("/story");
    if (lookup.kind !== "render") throw new Error("expected to render");
    lookup.done({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": CACHE.publicPage },
      body,
    });
    const answer = pageCacheHits(hits, [["X-Content-Type-Options", "nosniff"]]);
    const hitServer = http.createServer((req, res) => void (answer(req, res) || res.writeHead(404).end()));
    await new Promise<void>((resolve) => hitServer.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(hitServer.address() as AddressInfo).port}/story`;
    const raw = (method: string, acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .request(url, { method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
            const chunks: Buffer[] = [];
            res
              .on("data", (c: Buffer) => chunks.push(c))
              .once("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .once("error", reject)
          .end();
      });
    try {
      for (const [acceptEncoding, encoding, decode] of [
        ["br, gzip", "br", brotliDecompressSync],
        ["gzip", "gzip", gunzipSync],
        [undefined, undefined, (b: Buffer) => b],
        ["br, gzip", "br", brotliDecompressSync],
      ] as const) {
        const { headers, body: sent } = await raw("GET", acceptEncoding);
        expect([headers["content-encoding"], headers["x-cache"], headers["x-content-type-options"]]).toEqual([
          encoding,
          "HIT",
          "nosniff",
        ]);
        expect(Number(headers["content-length"])).toBe(sent.length);
        expect(decode(sent).equals(body)).toBe(true);
      }
      const head = await raw("HEAD", "gzip");
      expect([head.headers["content-encoding"], head.body.length]).toEqual(["gzip", 0]);
    } finally {
      await new Promise<void>((resolve) => hitServer.close(() => resolve()));
    }
  });
});
