import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islandsEntry } from "./vite-plugins/islands-entry.ts";
import { serviceWorker } from "./vite-plugins/service-worker.ts";
import { threadEntries } from "./vite-plugins/thread-entries.ts";

const READER_SHARED =
  /app[\\/](lib[\\/](dates|constants|categories|messages|news|bylines|poll|reader-classes|event-stream|images)\.ts|islands[\\/]island\.tsx|components[\\/](relative-time|icons|news-image)\.tsx)$/;

export default defineConfig({
  resolve: { tsconfigPaths: true },
  plugins: [
    tailwindcss(),
    reactRouter(),
    islandsEntry("app/islands.client.tsx"),
    serviceWorker("app/service-worker/sw.ts", "app/islands.client.tsx"),
    threadEntries("app/server"),
  ],
  // Pure-JavaScript ESM packages that every server start loads are bundled: a start then reads one file instead of
  // each package's hundreds of modules. Native, CommonJS and lazily loaded packages stay outside.
  ssr: {
    noExternal: [
      "kysely",
      "better-auth",
      /^@better-auth\//,
      "better-call",
      /^@better-fetch\//,
      "zod",
      "jose",
      /^@noble\//,
      "defu",
      "rou3",
      "nanostores",
      "@standard-schema/spec",
    ],
  },
  // Rolldown's report of the build time spent in plugins: the slow ones are React Router's own, and a
  // busy or small machine gets it on every build, where it reads as a warning to whoever starts the site.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  // In the browser, React and React DOM come in one file instead of four, and the small modules nearly every
  // reader page's islands share in one more: shared with route modules too, each would be a file of its own.
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
                { name: "reader", test: READER_SHARED },
              ],
            },
          },
        },
      },
    },
  },
});
