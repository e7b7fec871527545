/**
 * npm run bench:lighthouse: Lighthouse (mobile settings) on the home page and an article page of the
 * production server with the demo content, in Debian's Chromium; prints the four scores of each run
 * (LIGHTHOUSE_RUNS, default 3) and of the median one by performance.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumPath, CHROMIUM_ARGS } from "../../harness/chromium";
import { startTestServer } from "../../harness/test-server";
import { openDatabase } from "../../app/server/db/db.server";
import { ensureBuild } from "../ensure-build";

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

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const categories = ["performance", "accessibility", "best-practices", "seo"] as const;
const metrics = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
] as const;
type Run = { scores: number[]; metrics: string[]; misses: string[] };

async function audit(url: string, port: number): Promise<Run> {
  const lhr = (await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: [...categories] }))
    ?.lhr;
  if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
  const misses = categories.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(({ ref, audit }) => ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
      .map(({ audit }) => `${c}: ${audit!.id} (${audit!.score}) ${audit!.displayValue ?? ""}`),
  );
  return {
    scores: categories.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100)),
    metrics: metrics.map((m) => lhr.audits[m]?.displayValue ?? "?"),
    misses,
  };
}

const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath(),
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});
console.log(
  `Lighthouse ${RUNS}× per page, mobile settings. The first run meets a server that has just started (page not`,
);
console.log(
  "rendered yet, code not warmed up); the later ones a warm server, as readers do once a page is in the page cache.\n",
);
console.log("| page | run | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
try {
  for (const [name, path] of [
    ["home", "/"],
    ["article", `/news/${article.id}`],
  ] as const) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await audit(`${server.url}${path}`, chrome.port);
      runs.push(run);
      console.log(
        `| ${name} | ${i === 0 ? "cold" : `warm ${i}`} | ${run.scores.join(" | ")} | ${run.metrics.join(" | ")} |`,
      );
    }
    const median = [...runs].sort((a, b) => a.scores[0]! - b.scores[0]!)[Math.floor(runs.length / 2)]!;
    console.log(`| **${name}** | **median** | ${median.scores.join(" | ")} | ${median.metrics.join(" | ")} |`);
    for (const miss of median.misses) console.log(`    ${miss}`);
  }
} finally {
  chrome.kill();
  await server.stop();
}
