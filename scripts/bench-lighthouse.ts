/**
 * npm run bench:lighthouse: Lighthouse (mobile settings) on the home page and an article page of the
 * production server with the demo content, in Debian's Chromium; prints the four scores.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumPath, CHROMIUM_ARGS } from "../tests/support/chromium";
import { startTestServer } from "../tests/support/test-server";
import { openDatabase } from "../app/server/db/db.server";
import { ensureBuild } from "./ensure-build";

ensureBuild();
const server = await startTestServer({ DEMO_CONTENT: "on", LOG_LEVEL: "error" });
const db = openDatabase(server.env.DATABASE_URL);
const article = await db
  .selectFrom("news")
  .select("id")
  .where("status", "=", "published")
  .where("images", "!=", "[]")
  .orderBy("created_at", "desc")
  .executeTakeFirstOrThrow();
await db.destroy();

const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: ["--headless=new", ...CHROMIUM_ARGS] });
const categories = ["performance", "accessibility", "best-practices", "seo"] as const;
console.log("| page | performance | accessibility | best practices | SEO |");
console.log("|---|---:|---:|---:|---:|");
try {
  for (const [name, path] of [
    ["home", "/"],
    ["article", `/news/${article.id}`],
  ] as const) {
    const result = await lighthouse(`${server.url}${path}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...categories] });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${path}`);
    const scores = categories.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
    console.log(`| ${name} | ${scores.join(" | ")} |`);
    for (const c of categories) {
      for (const ref of lhr.categories[c]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) console.log(`    ${c}: ${audit.id} (${audit.score}) ${audit.displayValue ?? ""}`);
      }
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
