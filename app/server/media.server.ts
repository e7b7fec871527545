import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_WIDTHS, variantUrl } from "~/lib/images";

const MAX_STORED_WIDTH = 1600;

/** A safe file name stem: ASCII letters, digits and dashes only. */
export function sanitizeFileStem(filename: string): string {
  const stem = path.basename(filename).replace(/\.[^.]*$/, "");
  const safe = stem
    .normalize("NFKD")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .toLowerCase();
  return safe || "file";
}

/**
 * Re-encodes an image into WebP at full size and at each width of IMAGE_WIDTHS,
 * under news-images/{timestamp}-{name}; returns the public URL of the full-size file.
 */
export async function storeImage(mediaDir: string, input: Buffer, filename: string, now = Date.now()): Promise<string> {
  const stem = `${now}-${sanitizeFileStem(filename)}`;
  const dir = path.join(mediaDir, "news-images");
  await mkdir(dir, { recursive: true });
  const source = sharp(input, { failOn: "error" }).rotate();
  const base = `/media/news-images/${stem}`;
  const outputs = [
    { width: MAX_STORED_WIDTH, url: `${base}.webp` },
    ...IMAGE_WIDTHS.map((width) => ({ width, url: variantUrl(base, width) })),
  ];
  for (const { width, url } of outputs) {
    const data = await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
    await writeFile(path.join(mediaDir, url.slice("/media/".length)), data);
  }
  return `${base}.webp`;
}
