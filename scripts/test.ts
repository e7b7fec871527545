/**
 * npm test: every suite (Vitest unit + integration, Playwright in Chromium), then one
 * plain "N passed, N failed" line summing them all.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build";
import { chromiumPath } from "../tests/support/chromium";

const REPORTS = path.resolve(".tmp/reports");
type Tally = { passed: number; failed: number };

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function ensureChromium(): void {
  if (existsSync(chromiumPath())) return;
  console.log("Chromium is missing: installing Debian's chromium package…");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args: string[]) => run(sudo[0] ?? "apt-get", sudo.length ? ["apt-get", ...args] : args, { DEBIAN_FRONTEND: "noninteractive" });
  if (apt(["update", "-qq"]) !== 0 || apt(["install", "-y", "-qq", "chromium"]) !== 0 || !existsSync(chromiumPath())) {
    throw new Error(`Could not install Chromium; set CHROMIUM_PATH to a Chromium binary.`);
  }
}

function vitest(): Tally {
  const out = path.join(REPORTS, "vitest.json");
  const code = run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile=${out}`]);
  if (!existsSync(out)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(out, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTestSuites: number };
  // A suite that fails to load has no failed tests but a non-zero exit: count it as a failure.
  const failed = report.numFailedTests || (code === 0 ? 0 : 1);
  return { passed: report.numPassedTests, failed };
}

function playwright(): Tally {
  const out = path.join(REPORTS, "playwright.json");
  const code = run(process.execPath, ["node_modules/@playwright/test/cli.js", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  if (!existsSync(out)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(out, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } };
  const failed = report.stats.unexpected || (code === 0 ? 0 : 1);
  return { passed: report.stats.expected + report.stats.flaky, failed };
}

rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
ensureChromium();
ensureBuild();
const tallies = [vitest(), playwright()];
const passed = tallies.reduce((sum, t) => sum + t.passed, 0);
const failed = tallies.reduce((sum, t) => sum + t.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
