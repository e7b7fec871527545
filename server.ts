import path from "node:path";
import type { ServerBuild } from "react-router";
import type { BundleEntry } from "./app/entry.server";

/*
 * The entry of `npm start` (and `npm run dev` with --dev): it loads the app bundle and hands it over.
 * Everything else, from preparing the data to the last middleware, lives in the bundle
 * (app/server/site/run.server.ts), so each module is loaded once.
 */
const development = process.argv.includes("--dev");
// React picks its production build from NODE_ENV when first loaded, so the bundle comes after this.
process.env.NODE_ENV = development ? "development" : "production";

if (development) {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  const build = (await devServer.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
  await (build.entry.module as unknown as BundleEntry).runServer({ devServer });
} else {
  const build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  await (build.entry.module as unknown as BundleEntry).runServer({ build });
}
