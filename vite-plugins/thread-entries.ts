import { readdirSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

const SUFFIX = ".thread.server.ts";

/** Every thread's module under `serverDir`, by its name there ("http/compression"). */
function threadModules(serverDir: string): { name: string; file: string }[] {
  return readdirSync(serverDir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => ({
      name: file.slice(0, -SUFFIX.length).split(path.sep).join("/"),
      file: path.join(serverDir, file),
    }));
}

/**
 * Adds each thread's module (`*.thread.server.ts` under `serverDir`) to the server build as an entry of
 * its own, written beside the server's bundle as threads/<name>.js, where ThreadPool starts it.
 */
export function threadEntries(serverDir: string): Plugin {
  return {
    name: "akhbar:thread-entries",
    buildStart() {
      if (this.environment.name !== "ssr" || this.environment.config.command !== "build") return;
      for (const { name, file } of threadModules(path.resolve(serverDir)))
        this.emitFile({ type: "chunk", id: file, fileName: `threads/${name}.js` });
    },
  };
}
