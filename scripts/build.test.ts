import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../tests/support/scripts";
import { BUILD_SOURCES, SERVER_ENTRY } from "./ensure-build";

// Deprecations (Vite's, Node's), React Router's "Future Flag Warning", Vite's "(!)" notes, Rolldown's "[CODE]" lines.
const WARNING = /warn|deprecat|\(!\)|^\s*\[[A-Z_]+\]/i;

describe("npm run build, as the first `npm start` runs it", () => {
  let dir = "";
  let result: { code: number | null; output: string };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "akhbar-build-"));
    // A copy of what the build reads, so that it writes a build/ of its own, not the one the other tests serve.
    for (const source of BUILD_SOURCES) cpSync(source, path.join(dir, source), { recursive: true });
    symlinkSync(realpathSync("node_modules"), path.join(dir, "node_modules"));
    result = await runScript("build", [], {}, dir);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds the client and the server", () => {
    expect(result.code, result.output).toBe(0);
    expect(existsSync(path.join(dir, "build/server/index.js"))).toBe(true);
    expect(existsSync(path.join(dir, SERVER_ENTRY))).toBe(true);
    expect(existsSync(path.join(dir, "build/client/assets"))).toBe(true);
    expect(existsSync(path.join(dir, "build/client/sw.js"))).toBe(true);
  });

  it("writes each thread's module as a file of its own beside the bundle, which ThreadPool starts", () => {
    const modules = readdirSync("app/server", { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".thread.server.ts"),
    );
    expect(modules.length).toBeGreaterThanOrEqual(3);
    for (const module of modules) {
      const built = path.join(dir, "build/server/threads", module.replace(/\.thread\.server\.ts$/, ".js"));
      expect(existsSync(built), built).toBe(true);
      // A thread loads what it runs, never the whole server's bundle.
      expect(readFileSync(built, "utf8")).not.toMatch(/from "\.\.\/\.\.\/index\.js"/);
    }
  });

  it("prints no warning: no deprecation, no future flag left to adopt", () => {
    const lines = stripVTControlCharacters(result.output).split("\n");
    expect(lines.filter((line) => /✓ built in/.test(line))).toHaveLength(2);
    expect(lines.filter((line) => WARNING.test(line))).toEqual([]);
  });

  // React Router warns of a flag left off on the dev server only: the bundle lists every flag it knows.
  it("turns on every future flag of React Router 8's behaviour", () => {
    const bundle = readFileSync(path.join(dir, "build/server/index.js"), "utf8");
    const future = JSON.parse(/\bvar future = (\{[^}]*\});/.exec(bundle)?.[1] ?? "{}") as Record<string, boolean>;
    const v8Flags = Object.keys(future).filter((flag) => flag.startsWith("v8_"));
    expect(v8Flags.length).toBeGreaterThan(0);
    expect(v8Flags.filter((flag) => future[flag] !== true)).toEqual([]);
  });
});
