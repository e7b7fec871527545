/**
 * Screenshots of the main pages at phone and desktop widths, for a person to look at.
 * Usage: npm run screenshots -- http://127.0.0.1:3000 [outDir] [path ...]
 * SCREENSHOT_STATE=<file>: a Playwright storage state (a signed-in session) for pages behind sign-in.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../harness/chromium";

const [baseUrl = "http://127.0.0.1:3000", outDir = ".tmp/screenshots", ...paths] = process.argv.slice(2);
const pages = paths.length > 0 ? paths : ["/", "/local", "/breaking", "/who"];
const widths = [375, 1280];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
for (const width of widths) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: "ar-LB",
    reducedMotion: "reduce",
    storageState: process.env.SCREENSHOT_STATE,
  });
  const page = await context.newPage();
  for (const pagePath of pages) {
    await page.goto(new URL(pagePath, baseUrl).href, { waitUntil: "networkidle" });
    const name = `${pagePath.replace(/[^a-z0-9]+/gi, "_") || "home"}-${width}.png`;
    await page.screenshot({ path: path.join(outDir, name), fullPage: true });
    await page.screenshot({ path: path.join(outDir, name.replace(".png", "-top.png")) });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    console.log(`${name}${overflow > 0 ? `  (overflows by ${overflow}px)` : ""}`);
  }
  await context.close();
}
await browser.close();
