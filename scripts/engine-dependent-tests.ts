/**
 * Which test files the PostgreSQL pass runs: those whose behaviour depends on the engine under test.
 * TEST_DATABASE is read in one place, harness/postgres.ts (`onPostgres`), and every way a test
 * reaches a database of the engine under test goes through it (temp-db, test-server, the account and
 * article helpers). So a test file depends on the engine exactly when its imports, followed through
 * our own files, reach that module; type-only imports run nothing and do not count.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The one module that reads TEST_DATABASE. */
export const ENGINE_SWITCH = "harness/postgres.ts";

/** Where test files live, and how their names end (as vitest.config.ts's `include`). */
const TEST_ROOTS = ["app", "scripts", "tests/integration"];
const TEST_FILE = /\.test\.tsx?$/;

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`; group 1 marks `import type`.
const IMPORT =
  /\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Every test file under the test roots of `root`, relative to it, with forward slashes. */
export function testFiles(root: string): string[] {
  return TEST_ROOTS.flatMap((dir) =>
    existsSync(path.join(root, dir))
      ? readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
          .filter((file) => TEST_FILE.test(file) && !file.split(path.sep).includes("node_modules"))
          .map((file) => path.posix.join(dir, file.split(path.sep).join("/")))
      : [],
  ).sort();
}

/** The repository file an import of `specifier` from `from` names, or undefined for a package or a missing file. */
function resolveImport(root: string, from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else return undefined;
  const stem = base.replace(/\.js$/, "");
  return [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`].find(
    (candidate) => /\.tsx?$/.test(candidate) && existsSync(path.join(root, candidate)),
  );
}

/** The repository files `file` imports for their code (not for types only). */
function importsOf(root: string, file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    if (match[1]) continue;
    const resolved = resolveImport(root, file, (match[2] ?? match[3])!);
    if (resolved) found.push(resolved);
  }
  return found;
}

/** The test files of `root` whose imports reach ENGINE_SWITCH, relative to `root`. */
export function engineDependentTestFiles(root: string): string[] {
  const imports = new Map<string, string[]>();
  const importsCached = (file: string) => {
    if (!imports.has(file)) imports.set(file, importsOf(root, file));
    return imports.get(file)!;
  };
  const reachesSwitch = (start: string): boolean => {
    const seen = new Set([start]);
    const pending = [start];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (file === ENGINE_SWITCH) return true;
      for (const next of importsCached(file)) {
        if (seen.has(next)) continue;
        seen.add(next);
        pending.push(next);
      }
    }
    return false;
  };
  return testFiles(root).filter(reachesSwitch);
}
