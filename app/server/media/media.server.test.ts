import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exeBytes, jpegBytes, mp4Bytes, pngBytes, webmBytes } from "../../../harness/fixtures";
import { mountSmallDisk, type SmallDisk } from "../../../tests/support/small-disk";
import { AppError } from "~/server/platform/app-error.server";
import { localStorage } from "./local-storage.server";
import { deleteMedia, sanitizeFileStem, storeImage, storeVideoFile } from "./media.server";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-media-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const files = (sub: string) => (existsSync(path.join(dir, sub)) ? readdirSync(path.join(dir, sub)).sort() : []);

describe("storeImage", () => {
  it("re-encodes to WebP at full size and at 400, 800 and 1200 px, under news-images/{random id}-{slug}", async () => {
    const url = await storeImage(localStorage(dir), await pngBytes(2000, 1000), "Photo من البلدية.PNG");
    const stem = /^\/media\/news-images\/([0-9a-f]{16}-photo)\.webp$/.exec(url)?.[1];
    expect(stem).toBeDefined();
    expect(files("news-images")).toEqual([
      `${stem}-1200w.webp`,
      `${stem}-400w.webp`,
      `${stem}-800w.webp`,
      `${stem}.webp`,
    ]);
    const small = await sharp(path.join(dir, `news-images/${stem}-400w.webp`)).metadata();
    expect([small.format, small.width, small.height]).toEqual(["webp", 400, 200]);
    const full = await sharp(path.join(dir, `news-images/${stem}.webp`)).metadata();
    expect(full.width).toBe(1600);
  });

  it("gives concurrent uploads of the same (Arabic) name files of their own", async () => {
    const urls = await Promise.all(
      Array.from({ length: 40 }, async () => storeImage(localStorage(dir), await pngBytes(), "صورة.jpg")),
    );
    expect(new Set(urls).size).toBe(40);
    expect(files("news-images")).toHaveLength(40 * 4);
  });

  it("accepts JPEG and never enlarges a small image", async () => {
    const url = await storeImage(localStorage(dir), await jpegBytes(300, 200), "small.jpg");
    const big = await sharp(path.join(dir, url.replace("/media/", "").replace(".webp", "-1200w.webp"))).metadata();
    expect(big.width).toBe(300);
  });

  it("refuses what is not an image by its bytes, a truncated image and an empty file, leaving nothing behind", async () => {
    const png = await pngBytes(800, 600);
    for (const bad of [
      exeBytes(),
      png.subarray(0, Math.floor(png.length / 2)),
      Buffer.alloc(0),
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
    ]) {
      await expect(storeImage(localStorage(dir), bad, "photo.jpg")).rejects.toMatchObject({ code: "validation" });
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
    const mp4 = await storeVideoFile(localStorage(dir), staged("a", mp4Bytes()), "clip.mov");
    const webm = await storeVideoFile(localStorage(dir), staged("b", webmBytes()), "clip");
    expect(mp4).toMatch(/^\/media\/news-videos\/[0-9a-f]{16}-clip\.mp4$/);
    expect(webm).toMatch(/^\/media\/news-videos\/[0-9a-f]{16}-clip\.webm$/);
    await expect(storeVideoFile(localStorage(dir), staged("c", exeBytes()), "clip.mp4")).rejects.toMatchObject({
      code: "validation",
    });
    expect(files("news-videos")).toEqual([mp4, webm].map((url) => path.basename(url)).sort());
  });
});

describe("file names and deletion", () => {
  it("never lets a file name choose the path", () => {
    expect(sanitizeFileStem("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileStem("..\\..\\windows\\evil.exe")).toBe("evil");
    expect(sanitizeFileStem("صورة.jpg")).toBe("");
    expect(sanitizeFileStem("a".repeat(200))).toHaveLength(60);
  });

  it("deletes an image with all its variants and a video, and ignores URLs outside the media directory", async () => {
    const keep = await storeImage(localStorage(dir), await pngBytes(), "keep.png");
    const gone = await storeImage(localStorage(dir), await pngBytes(), "gone.png");
    writeFileSync(path.join(dir, "secret.txt"), "x");
    await deleteMedia(localStorage(dir), [gone, "/media/../secret.txt", "https://example.com/a.webp", "/etc/passwd"]);
    const stem = path.basename(keep, ".webp");
    expect(files("news-images")).toEqual([
      `${stem}-1200w.webp`,
      `${stem}-400w.webp`,
      `${stem}-800w.webp`,
      `${stem}.webp`,
    ]);
    expect(existsSync(path.join(dir, "secret.txt"))).toBe(true);
  });
});

describe("a disk that refuses", () => {
  let disk: SmallDisk;
  beforeEach(() => {
    disk = mountSmallDisk(1024 * 1024);
  });
  afterEach(() => disk.remove());

  it("a full disk is a storage-full AppError (not an invalid image), and the image's files written so far are removed", async () => {
    writeFileSync(path.join(disk.dir, "filler"), Buffer.alloc(1024 * 1024 - 48 * 1024));
    const noise = await sharp(randomBytes(1600 * 900 * 3), { raw: { width: 1600, height: 900, channels: 3 } })
      .png()
      .toBuffer();
    const error = await storeImage(localStorage(disk.dir), noise, "photo.png").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("storage-full");
    expect(readdirSync(path.join(disk.dir, "news-images"))).toEqual([]);
  });

  it("deleting from a read-only disk does not throw; the files stay for the sweep at start", async () => {
    const url = await storeImage(localStorage(disk.dir), await pngBytes(), "photo.png");
    disk.readOnly();
    expect(await deleteMedia(localStorage(disk.dir), [url])).toHaveLength(4);
    expect(readdirSync(path.join(disk.dir, "news-images"))).toHaveLength(4);
  });
});
