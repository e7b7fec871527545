import { brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CompressionThreads } from "./compression-threads.server";

const settings = { brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }, gzip: { level: 6 } };
const page = (n: number) =>
  Buffer.from(
    `<!DOCTYPE html><html lang="ar" dir="rtl"><p>خبر رقم ${n}</p>${"<li>أخبار الشمال</li>".repeat(200 + n)}</html>`,
  );

describe("compression threads", () => {
  it("encode many bodies at once, each answer the encoding of its own body, in both encodings", async () => {
    const threads = new CompressionThreads(2, settings);
    const bodies = Array.from({ length: 40 }, (_, n) => page(n));
    const encoded = await Promise.all(bodies.map((body, n) => threads.encode(body, n % 2 ? "gzip" : "br")));
    encoded.forEach((answer, n) => {
      expect(answer.length).toBeLessThan(bodies[n]!.length / 5);
      expect((n % 2 ? gunzipSync(answer) : brotliDecompressSync(answer)).equals(bodies[n]!)).toBe(true);
    });
  });

  it("refuse a body the encoder cannot take with the encoder's error, and keep working", async () => {
    const threads = new CompressionThreads(1, settings);
    await expect(threads.encode({ not: "a body" } as unknown as Buffer, "br")).rejects.toThrow(/argument/i);
    expect(brotliDecompressSync(await threads.encode(page(1), "br")).equals(page(1))).toBe(true);
  });

  it("refuse the jobs of a thread that ended, and answer the next one from a new thread", async () => {
    const threads = new CompressionThreads(1, settings);
    const inFlight = threads.encode(page(2), "gzip");
    await threads.close();
    await expect(inFlight).rejects.toThrow(/compression thread was closed/);
    expect(gunzipSync(await threads.encode(page(3), "gzip")).equals(page(3))).toBe(true);
    await threads.close();
  });

  it("need at least one thread", () => {
    expect(() => new CompressionThreads(0, settings)).toThrow(RangeError);
  });
});
