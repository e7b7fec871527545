import { mkdirSync } from "node:fs";
import { test as base } from "@playwright/test";
import { DEMO_SITES, FILES_DIR, startServers } from "./servers";

/**
 * Playwright's `test`, with this worker's demo servers (servers.ts) started before its first test and
 * stopped after its last: every spec imports `test` and `expect` from here.
 */
export const test = base.extend<object, { servers: void }>({
  servers: [
    async ({}, use) => {
      mkdirSync(FILES_DIR, { recursive: true });
      const stop = await startServers(DEMO_SITES);
      try {
        await use();
      } finally {
        await stop();
      }
    },
    // Starting servers on a busy machine can take most of a minute.
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
});

export { expect } from "@playwright/test";
