import { randomBytes, randomFillSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mp4Bytes, pngBytes } from "../../../harness/fixtures";
import { sha256, startTestBucket, type TestBucket } from "../../../tests/support/s3rver";
import { localStorage } from "./local-storage.server";
import { ORPHAN_AGE_MS, sweepMedia } from "./media-sweep.server";
import { deleteMedia, mediaNamesOf, storedImageSize, storeImage, storeVideoFile } from "./media.server";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { s3Client, s3Storage } from "./s3-storage.server";
import { mediaNameOf, type MediaRead, type MediaStorage, type RangeRequest } from "./storage.server";

let bucket: TestBucket;
let dir: string;
let s3: MediaStorage;
let local: MediaStorage;
beforeAll(async () => {
  bucket = await startTestBucket();
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-s3-parity-"));
  s3 = s3Storage(bucket.settings);
  local = localStorage(path.join(dir, "media"));
});
afterAll(async () => {
  await bucket?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function bytesOf(read: MediaRead): Promise<Buffer> {
  if (read.status !== "found") throw new Error(`expected a file, got ${read.status}`);
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An MP4 whose filler is random, so a byte in the wrong place shows. */
function videoBytes(size: number): Buffer {
  const bytes = mp4Bytes(size);
  randomFillSync(bytes, 32);
  return bytes;
}

function staged(bytes: Buffer): string {
  const file = path.join(dir, `staged-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  return file;
}

describe("the S3 driver against s3rver, beside the local folder", () => {
  it("stores every image variant with the same bytes as the local folder, and reads them back unchanged", async () => {
    const png = await pngBytes(1800, 900, "#264653");
    const [inBucket, inFolder] = [await storeImage(s3, png, "photo.png"), await storeImage(local, png, "photo.png")];
    const [bucketNames, folderNames] = [mediaNamesOf(inBucket), mediaNamesOf(inFolder)];
    expect(bucketNames).toHaveLength(4);
    expect(await bucket.keys()).toEqual([...bucketNames].sort());
    for (const [i, name] of bucketNames.entries()) {
      const stored = await bucket.bytes(name);
      const expected = readFileSync(path.join(dir, "media", folderNames[i]!));
      expect(sha256(stored), name).toBe(sha256(expected));
      expect(sha256(await bytesOf(await s3.read(name))), name).toBe(sha256(expected));
    }
    expect((await s3.stat(bucketNames[0]!))?.contentType).toBe("image/webp");
    await deleteMedia(s3, [inBucket]);
    expect(await bucket.keys()).toEqual([]);
  });

  it("reads a stored image's size from the bucket, however large the file", async () => {
    const noise = await sharp(randomBytes(1600 * 1000 * 3), { raw: { width: 1600, height: 1000, channels: 3 } })
      .png()
      .toBuffer();
    const url = await storeImage(s3, noise, "noise.png");
    const variant = `/media/${mediaNamesOf(url)[3]}`;
    expect((await s3.stat(mediaNameOf(variant)!))!.size).toBeGreaterThan(200_000);
    expect(await storedImageSize(s3, variant)).toEqual({ width: 1200, height: 750 });
    await deleteMedia(s3, [url]);
  });

  it("uploads a video in several parts (multipart) with its bytes unchanged", async () => {
    const video = videoBytes(12 * 1024 * 1024 + 12_345); // two 8 MiB parts
    const url = await storeVideoFile(s3, staged(video), "clip.mp4");
    const name = mediaNameOf(url)!;
    expect(sha256(await bucket.bytes(name))).toBe(sha256(video));
    expect(await s3.stat(name)).toMatchObject({ size: video.length, contentType: "video/mp4" });
    await deleteMedia(s3, [url]);
    expect(await bucket.keys()).toEqual([]);
  });

  describe("byte ranges, alike on both drivers", () => {
    const video = videoBytes(50_000);
    const names = { s3: "", local: "" };
    beforeAll(async () => {
      names.s3 = mediaNameOf(await storeVideoFile(s3, staged(video), "range.mp4"))!;
      names.local = mediaNameOf(await storeVideoFile(local, staged(video), "range.mp4"))!;
    });
    afterAll(() => s3.delete([names.s3]));

    const cases: [string, RangeRequest, number, number][] = [
      ["the first bytes", { start: 0, end: 99 }, 0, 99],
      ["the middle", { start: 20_000, end: 29_999 }, 20_000, 29_999],
      ["a suffix", { suffix: 500 }, 49_500, 49_999],
      ["open-ended", { start: 45_000 }, 45_000, 49_999],
      ["an end past the file", { start: 49_990, end: 90_000 }, 49_990, 49_999],
    ];
    for (const [what, range, start, end] of cases) {
      it(`${what}: exactly those bytes`, async () => {
        for (const [driver, storage] of [
          ["s3", s3],
          ["local", local],
        ] as const) {
          const read = await storage.read(names[driver], range);
          expect(read, driver).toMatchObject({ status: "found", size: 50_000, range: { start, end } });
          expect(sha256(await bytesOf(read)), driver).toBe(sha256(video.subarray(start, end + 1)));
        }
      });
    }

    it("a range starting past the end, or an empty suffix, is unsatisfiable and tells the size", async () => {
      for (const range of [{ start: 50_000 }, { start: 60_000, end: 70_000 }, { suffix: 0 }]) {
        for (const [driver, storage] of [
          ["s3", s3],
          ["local", local],
        ] as const) {
          expect(await storage.read(names[driver], range), `${driver} ${JSON.stringify(range)}`).toEqual({
            status: "unsatisfiable",
            size: 50_000,
          });
        }
      }
    });
  });

  it("a missing object, or a name we never store, is missing, not an error", async () => {
    for (const storage of [s3, local]) {
      for (const name of ["news-images/missing.webp", "../secret", ".staging/1/0", "news-images/"]) {
        expect(await storage.read(name), name).toEqual({ status: "missing" });
        expect(await storage.read(name, { start: 0, end: 10 }), name).toEqual({ status: "missing" });
        expect(await storage.stat(name), name).toBeNull();
      }
    }
  });

  it("the start-up sweep removes unreferenced objects older than an hour and keeps referenced ones with their variants", async () => {
    const kept = await storeImage(s3, await pngBytes(), "kept.png");
    const orphan = await storeImage(s3, await pngBytes(), "orphan.png");
    const stagingDir = path.join(dir, "media", ".staging");
    writeFileSync(staged(Buffer.alloc(10)), "x");
    const young = await sweepMedia(stagingDir, s3, [kept]);
    expect(young.orphans.names).toEqual([]);
    const report = await sweepMedia(stagingDir, s3, [kept], Date.now() + ORPHAN_AGE_MS + 60_000);
    expect(report.orphans.names.sort()).toEqual(mediaNamesOf(orphan).sort());
    expect(await bucket.keys()).toEqual(mediaNamesOf(kept).sort());
    await deleteMedia(s3, [kept]);
  });
});

describe("the S3 client's checksums", () => {
  it("sends no checksum of its own with an upload: R2 and B2 refuse them and s3rver would store their framing", async () => {
    const client = s3Client(bucket.settings);
    const sent: Record<string, string>[] = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: "finalizeRequest", name: "recordHeaders" },
    );
    const body = randomBytes(64 * 1024);
    await client.send(new PutObjectCommand({ Bucket: bucket.settings.bucket, Key: "checksum-probe", Body: body }));
    const headers = Object.keys(sent[0] ?? {}).map((name) => name.toLowerCase());
    expect(headers).toContain("content-length");
    expect(
      headers.filter((name) => name.startsWith("x-amz-checksum") || name === "x-amz-sdk-checksum-algorithm"),
    ).toEqual([]);
    expect(sent[0]?.["content-encoding"] ?? "").not.toContain("aws-chunked");
    expect(await bytesOf(await s3.read("checksum-probe"))).toEqual(body);
    client.destroy();
  });
});
