/**
 * npm run bench:weight: where the bytes of the reader pages go. Seeds a site with every list full
 * (harness/full-site.ts), starts the production server on it and prints, per page, the HTML by
 * region (head, header, ticker, sidebars, related, picks, footer, …) and by kind of markup across
 * regions (island props, class lists, srcset, inline SVG, JSON-LD), uncompressed and gzipped; then a
 * first visit of each page in Chromium: its scripts on the wire (brotli, as served) and their files,
 * and every byte of the visit with the service worker's own fetches, on an ordinary connection and
 * with Save-Data. On SQLite, or on PostgreSQL with TEST_DATABASE=postgres. `-- --save <dir>` also
 * writes each page there.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { seedFullSite } from "../../harness/full-site";
import { partsTable } from "../../harness/html-parts";
import { launchChromium, pageWeight } from "../../harness/page-weight";
import { createEmptyDatabase } from "../../harness/temp-db";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";
import { benchReport } from "./report";

const { values: flags } = parseArgs({
  options: { save: { type: "string" }, write: { type: "boolean" } },
  strict: true,
});
ensureBuild();
const database = await createEmptyDatabase();
try {
  const env = { DATABASE_URL: database.url, MEDIA_DIR: path.join(database.dir, "media") };
  const { articleId, liveId, videoId } = await seedFullSite(env);
  const server = await startTestServer({ ...env, PAGE_CACHE_SECONDS: "0" });
  try {
    const routes = [
      ["home", "/"],
      ["article", `/news/${articleId}`],
      ["category", "/local"],
      ["live", `/news/${liveId}`],
      ["video", `/news/${videoId}`],
    ] as const;
    const pages: [string, string][] = [];
    for (const [name, route] of routes.slice(0, 3))
      pages.push([name, await (await fetch(`${server.url}${route}`)).text()]);
    if (flags.save) {
      mkdirSync(flags.save, { recursive: true });
      for (const [name, html] of pages) writeFileSync(path.join(flags.save, `${name}.html`), html);
    }
    const browser = await launchChromium();
    const visits = [];
    try {
      for (const [name, route] of routes) {
        visits.push({
          name,
          normal: await pageWeight(browser, server.url, route, { serviceWorker: true }),
          saveData: await pageWeight(browser, server.url, route, { serviceWorker: true, saveData: true }),
        });
      }
    } finally {
      await browser.close();
    }
    const report = benchReport("npm run bench:weight");
    const kb = (n: number) => (n / 1024).toFixed(1).padStart(9);
    report.line("```");
    report.line(partsTable(pages));
    report.line(`${"gzipped".padEnd(42)}${pages.map(([, html]) => kb(gzipSync(html).length)).join("")}`);
    report.line("");
    report.line(
      `${"first visit in Chromium, KB on the wire".padEnd(42)}${visits.map((v) => v.name.padStart(9)).join("")}`,
    );
    const row = (label: string, values: string[]) => report.line(`${label.padEnd(42)}${values.join("")}`);
    row(
      "scripts (brotli)",
      visits.map((v) => kb(v.normal.js)),
    );
    row(
      "script files",
      visits.map((v) => String(v.normal.jsFiles.length).padStart(9)),
    );
    row(
      "stylesheet",
      visits.map((v) => kb(v.normal.css)),
    );
    row(
      "everything, service worker included",
      visits.map((v) => kb(v.normal.total)),
    );
    row(
      "  of which the service worker's fetches",
      visits.map((v) => kb(v.normal.worker)),
    );
    row(
      "everything, with Save-Data",
      visits.map((v) => kb(v.saveData.total)),
    );
    row(
      "  of which the service worker's fetches",
      visits.map((v) => kb(v.saveData.worker)),
    );
    report.line("```");
    report.finish();
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}
