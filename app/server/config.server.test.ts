import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server";

describe("parseConfig", () => {
  it("needs nothing to run locally", () => {
    const cfg = parseConfig({ AUTH_SECRET: "s".repeat(32) });
    expect(cfg.port).toBe(3000);
    expect(cfg.baseUrl).toBe("http://localhost:3000");
    expect(cfg.databaseUrl).toBe("./data/akhbar.db");
    expect(cfg.mediaDir.endsWith("data/media")).toBe(true);
    expect(cfg.demoContent).toBe(true);
  });

  it("stops with a clear message on a bad value", () => {
    expect(() => parseConfig({ PORT: "eighty", AUTH_SECRET: "s".repeat(32) })).toThrow(/PORT/);
    expect(() => parseConfig({ BASE_URL: "ftp://x", AUTH_SECRET: "s".repeat(32) })).toThrow(/BASE_URL/);
    expect(() => parseConfig({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET/);
  });
});
