import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_SWITCH, engineDependentTestFiles, testFiles } from "./engine-dependent-tests";

const REPO = path.resolve(".");

describe("the PostgreSQL pass's files: those whose imports reach the one reader of TEST_DATABASE", () => {
  const root = mkdtempSync(path.join(tmpdir(), "akhbar-engine-files-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    [ENGINE_SWITCH]: `export const onPostgres = true;\nexport type TempPostgres = { name: string };`,
    "harness/temp-db.ts": `import { onPostgres } from "./postgres";\nexport const createTempDatabase = () => onPostgres;`,
    "tests/integration/direct.test.ts": `import { onPostgres } from "../../harness/postgres";`,
    "tests/integration/through-helper.test.ts": `import { describe } from "vitest";\nimport {\n  createTempDatabase,\n} from "../../harness/temp-db";`,
    "app/server/uses-db.ts": `export { createTempDatabase } from "../../harness/temp-db.ts";`,
    "app/server/alias.test.tsx": `const loaded = await import("~/server/uses-db");`,
    "app/lib/pure.ts": `import { other } from "./cycle";\nexport const pure = 1;`,
    "app/lib/cycle.ts": `import { pure } from "./pure";\nexport const other = pure;`,
    "app/lib/pure.test.ts": `import { pure } from "./pure";\nimport { expect } from "vitest";`,
    "app/lib/types-only.test.ts": `import type { TempPostgres } from "../../harness/postgres";`,
  };
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }

  it("finds every test file, and keeps those reaching it directly, through helpers, re-exports, `~/` and import(); not types only", () => {
    expect(testFiles(root)).toEqual([
      "app/lib/pure.test.ts",
      "app/lib/types-only.test.ts",
      "app/server/alias.test.tsx",
      "tests/integration/direct.test.ts",
      "tests/integration/through-helper.test.ts",
    ]);
    expect(engineDependentTestFiles(root)).toEqual([
      "app/server/alias.test.tsx",
      "tests/integration/direct.test.ts",
      "tests/integration/through-helper.test.ts",
    ]);
  });

  it("in this repository: every test that starts a server or opens a temporary database is in it, pure unit tests are not", () => {
    const dependent = engineDependentTestFiles(REPO);
    // This file names those modules in its fixtures' text, not in its imports.
    for (const file of testFiles(REPO).filter((file) => file !== "scripts/engine-dependent-tests.test.ts")) {
      if (/harness\/(test-server|temp-db|postgres)"/.test(readFileSync(path.join(REPO, file), "utf8")))
        expect(dependent, file).toContain(file);
    }
    expect(dependent).toContain("tests/integration/publishing.test.ts");
    expect(dependent).not.toContain("app/lib/lib.test.ts");
  });

  it(`rests on one fact: only ${ENGINE_SWITCH} reads TEST_DATABASE`, () => {
    const sources = ["app", "harness", "scripts", "tests"].flatMap((dir) =>
      readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file))
        .map((file) => path.posix.join(dir, file.split(path.sep).join("/"))),
    );
    const readers = [...sources, "server.ts", "vitest.config.ts", "playwright.config.ts"].filter((file) =>
      /env\.TEST_DATABASE|env\[["']TEST_DATABASE/.test(readFileSync(path.join(REPO, file), "utf8")),
    );
    expect(readers).toEqual([ENGINE_SWITCH]);
  });
});
