import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { engineDependentTestFiles, testFiles } from "./scripts/engine-dependent-tests.ts";
import { onPostgres } from "./tests/support/postgres.ts";

const ROOT = fileURLToPath(new URL(".", import.meta.url));

/**
 * Files that measure time or load, or use what all of PostgreSQL shares: they run after the others, one at
 * a time, so no other file's servers take the CPU or connections they measure.
 */
const ALONE = [
  "tests/integration/forgot-password.test.ts", // timing medians of registered vs unknown addresses
  "tests/integration/database-lock.test.ts", // p99 of lock waits
  "tests/integration/database-faults.test.ts", // answers within 7 s; the server-wide max_connections count; alter database
  "tests/integration/lifecycle.test.ts", // drain times (≥ 9.5 s, < 12 s)
  "tests/integration/behind-nginx.test.ts", // CPU ticks per worker; kill -9
  "tests/integration/workers.test.ts", // kill -9 of workers under load
  "tests/integration/instances-behind-nginx.test.ts", // within 2 s across instances; kill -9
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
    // Most files wait on the servers, nginx and Chromium they spawn, not on the CPU: more files than cores.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "parallel", include: INCLUDE, exclude: [...EXCLUDE, ...ALONE] } },
      { extends: true, test: { name: "alone", include: ALONE, exclude: EXCLUDE, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
