/**
 * npm run bench:weight: where the bytes of the reader pages go. Seeds a site with every list full
 * (harness/full-site.ts), starts the production server on it and prints, per page, the HTML by
 * region (head, header, ticker, sidebars, related, picks, footer, …) and by kind of markup across
 * regions (island props, class lists, srcset, inline SVG, JSON-LD), uncompressed and gzipped.
 * On SQLite, or on PostgreSQL with TEST_DATABASE=postgres. `-- --save <dir>` also writes each page there.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { seedFullSite } from "../../harness/full-site";
import { partsTable } from "../../harness/html-parts";
import { createEmptyDatabase } from "../../harness/temp-db";
import { startTestServer } from "../../harness/test-server";
import { ensureBuild } from "../ensure-build";
import { benchReport } from "./report";

const { values: flags } = parseArgs({ options: { save: { type: "string" }, write: { type: "boolean" } }, strict: true });
ensureBuild();
const database = await createEmptyDatabase();
try {
  const env = { DATABASE_URL: database.url, MEDIA_DIR: path.join(database.dir, "media") };
  const { articleId } = await seedFullSite(env);
  const server = await startTestServer({ ...env, PAGE_CACHE_SECONDS: "0" });
  try {
    const pages: [string, string][] = [];
    for (const [name, route] of [["home", "/"], ["article", `/news/${articleId}`], ["category", "/local"]] as const)
      pages.push([name, await (await fetch(`${server.url}${route}`)).text()]);
    if (flags.save) {
      mkdirSync(flags.save, { recursive: true });
      for (const [name, html] of pages) writeFileSync(path.join(flags.save, `${name}.html`), html);
    }
    const report = benchReport("npm run bench:weight");
    const kb = (n: number) => (n / 1024).toFixed(1).padStart(9);
    report.line("```");
    report.line(partsTable(pages));
    report.line(`${"gzipped".padEnd(42)}${pages.map(([, html]) => kb(gzipSync(html).length)).join("")}`);
    report.line("```");
    report.finish();
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}
