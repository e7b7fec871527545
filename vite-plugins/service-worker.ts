import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { build, type Plugin, type Rolldown } from "vite";
import { entryOf } from "./islands-entry.ts";

/** The files a page needs besides its HTML: stylesheets, fonts, the icon sprite, and the islands' scripts. */
function shellOf(bundle: Rolldown.OutputBundle, islandsEntryPath: string) {
  const names = Object.keys(bundle);
  const styles = names.filter((name) => name.endsWith(".css"));
  const islands = entryOf(bundle, islandsEntryPath);
  const files = [
    ...styles,
    ...names.filter((name) => /\.(woff2|svg)$/.test(name) && name.startsWith("assets/")),
    islands.file,
    ...islands.imports,
  ];
  const absolute = (name: string) => `/${name}`;
  return { files: [...new Set(files)].map(absolute), styles: styles.map(absolute) };
}

/**
 * Builds `entry` (the service worker) once the browser bundle is written, as one classic script at
 * /sw.js, with that bundle's shell files and a version made from their hashed names put in as `__SHELL__`.
 */
export function serviceWorker(entry: string, islandsEntry: string): Plugin {
  const entryPath = path.resolve(entry);
  const islandsEntryPath = path.resolve(islandsEntry);
  return {
    name: "akhbar:service-worker",
    async writeBundle(options, bundle) {
      if (this.environment.name !== "client" || this.environment.config.command !== "build" || !options.dir) return;
      const shell = shellOf(bundle, islandsEntryPath);
      const version = createHash("sha256").update(shell.files.join("\n")).digest("hex").slice(0, 12);
      const result = await build({
        configFile: false,
        logLevel: "warn",
        root: this.environment.config.root,
        resolve: { tsconfigPaths: true },
        define: { __SHELL__: JSON.stringify({ version, ...shell }) },
        build: {
          write: false,
          copyPublicDir: false,
          minify: true,
          rolldownOptions: { input: entryPath, output: { format: "iife", entryFileNames: "sw.js" } },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
      const chunk = outputs
        .flatMap((output) => output.output)
        .find((file) => file.type === "chunk" && file.fileName === "sw.js");
      if (!chunk || chunk.type !== "chunk") throw new Error(`the service worker ${entry} built no sw.js`);
      writeFileSync(path.join(options.dir, "sw.js"), chunk.code);
    },
  };
}
