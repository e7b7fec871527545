import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin, Rolldown } from "vite";

type OutputBundle = Rolldown.OutputBundle;

const VIRTUAL_ID = "virtual:akhbar/islands-entry";
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
// React Router builds the client and the server with separate plugin instances, into sibling
// directories (build/client, build/server): hand the entry over in a file in their parent.
const handoverFile = (outDir: string) => path.resolve(outDir, "..", ".islands-entry.json");

export type IslandsEntry = { file: string; imports: string[] };

export function entryOf(bundle: OutputBundle, entryPath: string): IslandsEntry {
  const chunk = Object.values(bundle).find(
    (output) => output.type === "chunk" && output.isEntry && output.facadeModuleId === entryPath,
  );
  if (!chunk || chunk.type !== "chunk") throw new Error(`islands entry ${entryPath} is not in the client bundle`);
  const imports = new Set<string>();
  const visit = (file: string) => {
    const output = bundle[file];
    if (output?.type !== "chunk") return;
    for (const imported of output.imports) {
      if (imports.has(imported)) continue;
      imports.add(imported);
      visit(imported);
    }
  };
  visit(chunk.fileName);
  return { file: chunk.fileName, imports: [...imports] };
}

/**
 * Builds `entry` as a second browser entry beside React Router's, and gives the server bundle its
 * hashed file and imports as `virtual:akhbar/islands-entry`. It is null in the browser, which only
 * ever hydrates whole documents, and under the dev server, where every page hydrates whole.
 */
export function islandsEntry(entry: string): Plugin {
  const entryPath = path.resolve(entry);
  return {
    name: "akhbar:islands-entry",
    configEnvironment(name, _config, { command }) {
      if (name === "client" && command === "build") return { build: { rollupOptions: { input: [entryPath] } } };
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return;
      if (this.environment.config.command !== "build" || this.environment.config.consumer !== "server")
        return "export default null;";
      return `export default ${readFileSync(handoverFile(this.environment.config.build.outDir), "utf8")};`;
    },
    writeBundle(options, bundle) {
      if (this.environment.name !== "client" || !options.dir) return;
      writeFileSync(handoverFile(options.dir), JSON.stringify(entryOf(bundle, entryPath)));
    },
  };
}
