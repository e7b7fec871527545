/**
 * npm run build: React Router's production build, with its output as it comes, less one line; then
 * `server.ts` as plain JavaScript (SERVER_ENTRY), so the server runs on Node alone, without tsx.
 * React Router 7 starts Vite servers of its own (to load its config, and a child compiler) with
 * `envFile: false`, which Vite 8 calls deprecated once per server. React Router 8 passes `envDir: false`
 * instead (remix-run/react-router#15230); nothing in our config reaches those servers, so that exact
 * line is dropped here and every other line, warnings included, passes.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { transformWithOxc } from "vite";
import { SERVER_ENTRY } from "./ensure-build";

const REACT_ROUTER_7_ENV_FILE = "The `envFile` option is deprecated, please use `envDir: false` instead.";

function passLines(from: Readable, to: Writable): void {
  let partial = "";
  from.setEncoding("utf8");
  from.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (stripVTControlCharacters(line) !== REACT_ROUTER_7_ENV_FILE) to.write(`${line}\n`);
  });
  from.on("end", () => void (partial && to.write(partial)));
}

const build = spawn(process.execPath, [path.resolve("node_modules/@react-router/dev/bin.js"), "build"], {
  stdio: ["inherit", "pipe", "pipe"],
  // In colour when shown in a terminal, as the build would be without the pipe.
  env: process.stdout.isTTY ? { FORCE_COLOR: "1", ...process.env } : process.env,
});
passLines(build.stdout, process.stdout);
passLines(build.stderr, process.stderr);
build.on("close", (code) => {
  process.exitCode = code ?? 1;
  if (code === 0) void writeServerEntry();
});

async function writeServerEntry(): Promise<void> {
  const { code } = await transformWithOxc(readFileSync("server.ts", "utf8"), "server.ts", { lang: "ts" });
  writeFileSync(SERVER_ENTRY, code);
}
