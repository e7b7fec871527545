import { spawn } from "node:child_process";
import path from "node:path";

const TSX = import.meta.resolve("tsx");
const TSCONFIG = path.resolve("tsconfig.json");

/** Runs `npm run <script>` (scripts/<script>.ts) as the operator would, in `cwd`, with `env` added. */
export function runScript(script: string, args: string[], env: Record<string, string>, cwd = process.cwd()) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", TSX, path.resolve("scripts", `${script}.ts`), ...args], {
      cwd,
      env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG, ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}
