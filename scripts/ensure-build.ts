import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The sources a start rebuilds for, when one is newer than the build. */
export const BUILD_SOURCES = [
  "app",
  "public",
  "migrations",
  "server.ts",
  "vite.config.ts",
  "vite-plugins",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
];
const BUILD_MARKER = "build/server/index.js";
/** `server.ts` as the build writes it: what `npm start` and the tests run, with Node alone. */
export const SERVER_ENTRY = "build/server.js";

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, child) => Math.max(newest, newestMtime(path.join(entry, child))), 0);
}

function buildIsStale(): boolean {
  if (!existsSync(BUILD_MARKER) || !existsSync(SERVER_ENTRY)) return true;
  const built = statSync(BUILD_MARKER).mtimeMs;
  return BUILD_SOURCES.filter((s) => existsSync(s)).some((s) => newestMtime(s) > built);
}

/** Runs the production build when there is none or a source is newer than it. */
export function ensureBuild(): void {
  if (!buildIsStale()) return;
  console.log("Building the site (first start or sources changed)…");
  // Whoever asks (Vitest sets NODE_ENV=test), the build is the production one the servers run.
  execFileSync(process.execPath, ["--import", "tsx", path.resolve("scripts/build.ts")], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
}
