import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./harness/chromium";
import { E2E_SERVERS } from "./tests/e2e/servers";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: E2E_SERVERS.demo.url,
    locale: "ar-LB",
    timezoneId: "Asia/Beirut",
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: "off",
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: Object.values(E2E_SERVERS).map((server) => ({
    command: server.command,
    url: `${server.url}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: server.env,
  })),
});
