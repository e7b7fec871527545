import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exeBytes, pngBytes } from "../../../harness/fixtures";
import { storyMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { localStorage } from "~/server/media/local-storage.server";
import { AppError } from "~/server/platform/app-error.server";
import { storeShareImage } from "./story-fields.server";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-share-image-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function staged(name: string, bytes: Uint8Array) {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return { field: "shareImage", filename: name, path: file, size: bytes.length };
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (AppError.is(error) ? error.fields : error),
  );

describe("a story's share picture", () => {
  it("is cropped to 1200×630, whatever its shape, as the settings' share image is", async () => {
    const storage = localStorage(path.join(dir, "media"));
    for (const [width, height] of [
      [2000, 800],
      [500, 900],
    ] as const) {
      const url = await storeShareImage(storage, [staged(`p${width}.png`, await pngBytes(width, height))]);
      expect(url).toMatch(/^\/media\/share-images\/[0-9a-f]{16}-share-1200x630\.png$/);
      const stored = await readFile(path.join(dir, "media", url!.slice("/media/".length)));
      const { width: w, height: h } = await sharp(stored).metadata();
      expect([w, h]).toEqual([1200, 630]);
    }
  });

  it("is checked by its bytes: a program named .png, or a picture too small, is refused by field", async () => {
    const storage = localStorage(path.join(dir, "media"));
    expect(await refusalOf(storeShareImage(storage, [staged("x.png", exeBytes())]))).toEqual({
      shareImage: newsroomMessages.imageInvalid,
    });
    expect(await refusalOf(storeShareImage(storage, [staged("tiny.png", await pngBytes(20, 20))]))).toEqual({
      shareImage: storyMessages.shareImageTooSmall,
    });
    expect(await storeShareImage(storage, [])).toBeNull();
  });
});
