import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { engineDependentTestFiles, testFiles } from "./scripts/engine-dependent-tests.ts";
import { onPostgres } from "./harness/postgres.ts";

const ROOT = fileURLToPath(new URL(".", import.meta.url));

/**
 * Files whose assertions measure load itself (timing medians, latency percentiles, CPU shares) or count what
 * the whole PostgreSQL server holds: they run after the others, one at a time, so no other file's servers
 * take the CPU or connections they measure. Bounds on a server's own timers (lifecycle's drain, kill -9
 * and its replacement, "within 2 s" across instances) have seconds of slack and run with the rest.
 */
const ALONE = [
  "tests/integration/forgot-password.test.ts", // median time for a registered vs an unknown address
  "tests/integration/database-lock.test.ts", // p99 of lock waits under a writer
  "tests/integration/database-faults.test.ts", // the server-wide max_connections count; answers within 7 s
  "tests/integration/behind-nginx.test.ts", // CPU ticks each worker used: needs both scheduled alike
];

/** The PostgreSQL pass runs only the files whose behaviour depends on the engine (scripts/engine-dependent-tests.ts). */
function sameOnEveryEngine(): string[] {
  const dependent = new Set(engineDependentTestFiles(ROOT));
  return testFiles(ROOT).filter((file) => !dependent.has(file));
}
// Projects that extend this file add to its lists, so `include` is given to each project, not here.
const INCLUDE = ["app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts", "tests/integration/**/*.test.ts"];
const EXCLUDE = [...configDefaults.exclude, ...(onPostgres ? sameOnEveryEngine() : [])];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    pool: "forks",
    // One module graph per worker process, kept from file to file: no module under test keeps state of its own.
    isolate: false,
    // The servers the tests start run the build: made first if a source is newer.
    globalSetup: ["./scripts/vitest-setup.ts"],
    // Most files wait on the servers, nginx and Chromium they spawn, not on the CPU: more files than cores.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "parallel", include: INCLUDE, exclude: [...EXCLUDE, ...ALONE] } },
      {
        extends: true,
        test: { name: "alone", include: ALONE, exclude: EXCLUDE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
