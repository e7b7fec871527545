import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exeBytes, jpegBytes, mp4Bytes, pngBytes, webmBytes } from "../../tests/support/fixtures";
import { deleteMedia, MediaError, sanitizeFileStem, storeImage, storeVideoFile } from "./media.server";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-media-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const files = (sub: string) => (existsSync(path.join(dir, sub)) ? readdirSync(path.join(dir, sub)).sort() : []);

describe("storeImage", () => {
  it("re-encodes to WebP at full size and at 400, 800 and 1200 px, under news-images/{timestamp}-{name}", async () => {
    const url = await storeImage(dir, await pngBytes(2000, 1000), "Photo من البلدية.PNG", 1_700_000_000_000);
    expect(url).toBe("/media/news-images/1700000000000-photo.webp");
    expect(files("news-images")).toEqual([
      "1700000000000-photo-1200w.webp",
      "1700000000000-photo-400w.webp",
      "1700000000000-photo-800w.webp",
      "1700000000000-photo.webp",
    ]);
    const small = await sharp(path.join(dir, "news-images/1700000000000-photo-400w.webp")).metadata();
    expect([small.format, small.width, small.height]).toEqual(["webp", 400, 200]);
    const full = await sharp(path.join(dir, "news-images/1700000000000-photo.webp")).metadata();
    expect(full.width).toBe(1600);
  });

  it("accepts JPEG and never enlarges a small image", async () => {
    const url = await storeImage(dir, await jpegBytes(300, 200), "small.jpg", 1);
    const big = await sharp(path.join(dir, url.replace("/media/", "").replace(".webp", "-1200w.webp"))).metadata();
    expect(big.width).toBe(300);
  });

  it("refuses what is not an image by its bytes, a truncated image and an empty file, leaving nothing behind", async () => {
    const png = await pngBytes(800, 600);
    for (const bad of [exeBytes(), png.subarray(0, Math.floor(png.length / 2)), Buffer.alloc(0), Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")]) {
      await expect(storeImage(dir, bad, "photo.jpg")).rejects.toBeInstanceOf(MediaError);
    }
    expect(files("news-images")).toEqual([]);
  });
});

describe("storeVideoFile", () => {
  it("moves MP4 and WebM by their bytes and refuses anything else", async () => {
    const staged = (name: string, bytes: Buffer) => {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return file;
    };
    expect(await storeVideoFile(dir, staged("a", mp4Bytes()), "clip.mov", 5)).toBe("/media/news-videos/5-clip.mp4");
    expect(await storeVideoFile(dir, staged("b", webmBytes()), "clip", 6)).toBe("/media/news-videos/6-clip.webm");
    await expect(storeVideoFile(dir, staged("c", exeBytes()), "clip.mp4")).rejects.toBeInstanceOf(MediaError);
    expect(files("news-videos")).toEqual(["5-clip.mp4", "6-clip.webm"]);
  });
});

describe("file names and deletion", () => {
  it("never lets a file name choose the path", () => {
    expect(sanitizeFileStem("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileStem("..\\..\\windows\\evil.exe")).toBe("evil");
    expect(sanitizeFileStem("صورة.jpg")).toBe("file");
    expect(sanitizeFileStem("a".repeat(200))).toHaveLength(60);
  });

  it("deletes an image with all its variants and a video, and ignores URLs outside the media directory", async () => {
    const keep = await storeImage(dir, await pngBytes(), "keep.png", 1);
    const gone = await storeImage(dir, await pngBytes(), "gone.png", 2);
    writeFileSync(path.join(dir, "secret.txt"), "x");
    await deleteMedia(dir, [gone, "/media/../secret.txt", "https://example.com/a.webp", "/etc/passwd"]);
    expect(files("news-images")).toEqual(["1-keep-1200w.webp", "1-keep-400w.webp", "1-keep-800w.webp", "1-keep.webp"]);
    expect(existsSync(path.join(dir, "secret.txt"))).toBe(true);
    expect(keep).toBe("/media/news-images/1-keep.webp");
  });
});
