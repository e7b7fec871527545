import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./harness/chromium";
import { E2E_SERVERS } from "./tests/e2e/servers";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  // Two workers, each with servers of its own (tests/e2e/test.ts), share out the tests one by one;
  // a serial describe stays whole in one worker.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    // Evaluated again in each worker: its own demo server.
    baseURL: E2E_SERVERS.demo.url,
    locale: "ar-LB",
    timezoneId: "Asia/Beirut",
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: "off",
    // The site's service worker stays out of the other specs (their pages are fetched as they test them):
    // push-and-offline.spec.ts allows it.
    serviceWorkers: "block",
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
});
