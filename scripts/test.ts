/**
 * npm test: every suite (Vitest unit + integration, Playwright in Chromium), then one
 * plain "N passed, N failed" line summing them all. The Vitest suite runs on SQLite, then its files whose
 * behaviour depends on the engine (vitest.config.ts) run on PostgreSQL (TEST_DATABASE=postgres) when a
 * PostgreSQL server is there: TEST_POSTGRES_URL, or one
 * answering on 127.0.0.1:5432. REQUIRE_POSTGRES=1 (CI) makes its absence a failure. The tests through
 * nginx need Debian's nginx (NGINX_PATH); its absence is said at the start and at the end.
 * TEST_PASSES (e.g. "vitest-sqlite") runs only the passes it names, of vitest-sqlite, vitest-postgres and playwright.
 * Every child process runs on this process's Node (process.execPath), which the first line names.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { ensureBuild } from "./ensure-build";
import { chromiumPath } from "../harness/chromium";
import { NGINX_PATH, nginxInstalled } from "../harness/nginx";

const REPORTS = path.resolve(".tmp/reports");
type Tally = { passed: number; failed: number; failures: string[] };

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function ensureChromium(): void {
  if (existsSync(chromiumPath())) return;
  console.log("Chromium is missing: installing Debian's chromium package…");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args: string[]) =>
    run(sudo[0] ?? "apt-get", sudo.length ? ["apt-get", ...args] : args, { DEBIAN_FRONTEND: "noninteractive" });
  if (apt(["update", "-qq"]) !== 0 || apt(["install", "-y", "-qq", "chromium"]) !== 0 || !existsSync(chromiumPath())) {
    throw new Error(`Could not install Chromium; set CHROMIUM_PATH to a Chromium binary.`);
  }
}

/** Whether TEST_POSTGRES_URL's server (by default 127.0.0.1:5432) accepts a connection. */
async function postgresAnswers(): Promise<boolean> {
  const url = new URL(process.env.TEST_POSTGRES_URL ?? "postgres://127.0.0.1:5432");
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432), timeout: 2_000 });
    const answer = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once("connect", () => answer(true));
    socket.once("error", () => answer(false));
    socket.once("timeout", () => answer(false));
  });
}

function vitest(engine: "sqlite" | "postgres"): Tally {
  console.log(`\n── Vitest on ${engine === "sqlite" ? "SQLite" : "PostgreSQL"} ──`);
  const out = path.join(REPORTS, `vitest-${engine}.json`);
  const code = run(
    process.execPath,
    ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile=${out}`],
    { TEST_DATABASE: engine },
  );
  if (!existsSync(out)) return { passed: 0, failed: 1, failures: [`Vitest on ${engine}: no report`] };
  const report = JSON.parse(readFileSync(out, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults: { name: string; status: string; assertionResults: { fullName: string; status: string }[] }[];
  };
  const failures = report.testResults.flatMap((file) => {
    const where = `${engine} ${path.relative(process.cwd(), file.name)}`;
    const tests = file.assertionResults.filter((test) => test.status === "failed");
    if (tests.length === 0 && file.status === "failed") return [`${where}: the file failed to run`];
    return tests.map((test) => `${where} › ${test.fullName}`);
  });
  // A suite that fails to load has no failed tests but a non-zero exit: count it as a failure.
  const failed = report.numFailedTests || (code === 0 ? 0 : 1);
  return { passed: report.numPassedTests, failed, failures };
}

function playwright(withPostgres: boolean): Tally {
  const out = path.join(REPORTS, "playwright.json");
  const code = run(process.execPath, ["node_modules/@playwright/test/cli.js", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    E2E_POSTGRES: withPostgres ? "1" : "0",
  });
  if (!existsSync(out)) return { passed: 0, failed: 1, failures: ["Playwright: no report"] };
  const report = JSON.parse(readFileSync(out, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number };
    suites: PlaywrightSuite[];
  };
  const failed = report.stats.unexpected || (code === 0 ? 0 : 1);
  return { passed: report.stats.expected + report.stats.flaky, failed, failures: unexpectedSpecs(report.suites) };
}

type PlaywrightSuite = {
  title: string;
  file: string;
  specs?: { title: string; tests: { projectName: string; status: string }[] }[];
  suites?: PlaywrightSuite[];
};

function unexpectedSpecs(suites: PlaywrightSuite[], titles: string[] = []): string[] {
  return suites.flatMap((suite) => {
    const inside = suite.file === suite.title ? titles : [...titles, suite.title];
    const specs = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === "unexpected")
        .map((test) => `playwright ${suite.file} [${test.projectName}] › ${[...inside, spec.title].join(" › ")}`),
    );
    return [...specs, ...unexpectedSpecs(suite.suites ?? [], inside)];
  });
}

const PASSES = ["vitest-sqlite", "vitest-postgres", "playwright"] as const;
type Pass = (typeof PASSES)[number];
const chosen = (process.env.TEST_PASSES ?? PASSES.join(",")).split(",").map((name) => name.trim());
const unknown = chosen.filter((name) => !(PASSES as readonly string[]).includes(name));
if (unknown.length) throw new Error(`TEST_PASSES: unknown ${unknown.join(", ")}; the passes are ${PASSES.join(", ")}.`);
const runs = (pass: Pass) => chosen.includes(pass);

console.log(`Node.js ${process.version} (${process.execPath})`);
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
ensureChromium();
ensureBuild();
// The PostgreSQL pass is the Vitest one and the browser specs' PostgreSQL-backed server; nginx serves Vitest files only.
const postgresUsed = runs("vitest-postgres") || runs("playwright");
const withPostgres = postgresUsed && (await postgresAnswers());
const postgresRequired = postgresUsed && process.env.REQUIRE_POSTGRES === "1";
const postgresNote = withPostgres
  ? "PostgreSQL pass: run (the Vitest files that depend on the engine, and the browser specs on a demo site or a server of their own)."
  : `PostgreSQL pass: NOT run: no PostgreSQL server answered at ${process.env.TEST_POSTGRES_URL ?? "127.0.0.1:5432"} (set TEST_POSTGRES_URL or start PostgreSQL).`;
if (postgresUsed) console.log(postgresNote);
const nginxUsed = runs("vitest-sqlite") || runs("vitest-postgres");
const nginxNote = nginxInstalled()
  ? `nginx: ${NGINX_PATH} (the tests through nginx run it).`
  : `nginx: MISSING at ${NGINX_PATH}: the tests through nginx (tests/integration/behind-nginx.test.ts) will fail. Install Debian's nginx (apt-get install nginx; .ci/run does) or set NGINX_PATH.`;
if (nginxUsed) console.log(nginxNote);
const suiteTimes: string[] = [];
/** Runs a suite and notes its wall time, so a slowdown shows beside the totals when it happens. */
function timed(name: string, suite: () => Tally): Tally {
  const started = performance.now();
  const tally = suite();
  suiteTimes.push(`${name} ${Math.round((performance.now() - started) / 1000)} s`);
  return tally;
}
const tallies = [
  ...(runs("vitest-sqlite") ? [timed("Vitest on SQLite", () => vitest("sqlite"))] : []),
  ...(runs("vitest-postgres") && withPostgres ? [timed("Vitest on PostgreSQL", () => vitest("postgres"))] : []),
  ...(runs("playwright") ? [timed("Playwright", () => playwright(withPostgres))] : []),
  // Required but absent: one failure, so CI cannot pass without it.
  ...(postgresRequired && !withPostgres
    ? [{ passed: 0, failed: 1, failures: ["REQUIRE_POSTGRES=1: no PostgreSQL"] }]
    : []),
];
const passed = tallies.reduce((sum, t) => sum + t.passed, 0);
const failed = tallies.reduce((sum, t) => sum + t.failed, 0);
console.log("");
const postgresMissing = postgresRequired && !withPostgres ? " REQUIRE_POSTGRES=1: counted as a failure." : "";
if (postgresUsed) console.log(`${postgresNote}${postgresMissing}`);
if (nginxUsed && !nginxInstalled()) console.log(nginxNote);
// CI shows the end of the output: the failures' names are printed there, each on a line of its own.
for (const failure of tallies.flatMap((t) => t.failures)) console.log(`Failed: ${failure}`);
console.log(`Wall time on Node.js ${process.version}: ${suiteTimes.join(" · ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
