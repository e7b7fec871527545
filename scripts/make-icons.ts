/**
 * Renders the site's PNG icons and default share image from public/logo.svg (run once; the
 * results are committed in public/). Usage: npm run icons
 */
import { readFileSync } from "node:fs";
import sharp from "sharp";

const logo = readFileSync("public/logo.svg");

for (const [file, size] of [
  ["public/favicon-32.png", 32],
  ["public/icon-192.png", 192],
  ["public/icon-512.png", 512],
  ["public/apple-touch-icon.png", 180],
] as const) {
  await sharp(logo, { density: 600 }).resize(size, size).png().toFile(file);
}

const mark = await sharp(logo, { density: 600 }).resize(360, 360).png().toBuffer();
await sharp({ create: { width: 1200, height: 630, channels: 4, background: "#7f0a1d" } })
  .composite([{ input: mark, top: 135, left: 420 }])
  .png()
  .toFile("public/og-default.png");
console.log("icons written to public/");
