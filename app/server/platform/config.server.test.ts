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

  it("takes a PostgreSQL URL with a pool size, and requires AUTH_SECRET with it", () => {
    const secret = "s".repeat(32);
    for (const url of ["postgres://akhbar@db:5432/akhbar", "postgresql://akhbar@db/akhbar"]) {
      expect(parseConfig({ DATABASE_URL: url, AUTH_SECRET: secret }).databasePoolSize).toBe(10);
      expect(() => parseConfig({ DATABASE_URL: url })).toThrow(/AUTH_SECRET: required with PostgreSQL/);
      expect(() => parseConfig({ DATABASE_URL: url, AUTH_SECRET: "" })).toThrow(/AUTH_SECRET: required with PostgreSQL/);
    }
    expect(parseConfig({ DATABASE_URL: "postgres://db/akhbar", DATABASE_POOL_SIZE: "25", AUTH_SECRET: secret }).databasePoolSize).toBe(25);
    for (const size of ["0", "-1", "2.5", "many"]) {
      expect(() => parseConfig({ DATABASE_POOL_SIZE: size, AUTH_SECRET: secret })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});

describe("TRUST_PROXY", () => {
  const parse = (value?: string) => parseConfig({ AUTH_SECRET: "s".repeat(32), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;

  it("trusts no proxy by default, so the socket address is the client", () => {
    expect(parse()).toBe(false);
    expect(parse("")).toBe(false);
  });

  it("takes a hop count or a list of addresses, CIDRs and range names", () => {
    expect(parse("1")).toBe(1);
    expect(parse("127.0.0.1")).toEqual(["127.0.0.1"]);
    expect(parse("loopback, 10.0.0.0/8,::1,fd00::/8")).toEqual(["loopback", "10.0.0.0/8", "::1", "fd00::/8"]);
  });

  it("stops on anything else", () => {
    for (const bad of ["true", "nginx", "10.0.0.0/33", "10.0.0.1/8/2", "1.2.3", "-1"]) expect(() => parse(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

describe("media storage", () => {
  const secret = { AUTH_SECRET: "s".repeat(32) };
  const bucket = {
    MEDIA_S3_BUCKET: "akhbar-media",
    MEDIA_S3_REGION: "auto",
    MEDIA_S3_ACCESS_KEY_ID: "key",
    MEDIA_S3_SECRET_ACCESS_KEY: "secret",
  };

  it("keeps media in MEDIA_DIR unless a bucket is named", () => {
    const cfg = parseConfig({ ...secret, MEDIA_S3_BUCKET: "" });
    expect([cfg.mediaS3, cfg.mediaPublicUrl]).toEqual([null, null]);
  });

  it("takes a complete bucket: AWS without an endpoint, another service by its endpoint, and an optional public URL", () => {
    expect(parseConfig({ ...secret, ...bucket }).mediaS3).toEqual({
      bucket: "akhbar-media",
      region: "auto",
      endpoint: undefined,
      accessKeyId: "key",
      secretAccessKey: "secret",
    });
    const r2 = parseConfig({ ...secret, ...bucket, MEDIA_S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com/", MEDIA_PUBLIC_URL: "https://media.example.com/" });
    expect(r2.mediaS3?.endpoint).toBe("https://acct.r2.cloudflarestorage.com");
    expect(r2.mediaPublicUrl).toBe("https://media.example.com");
  });

  it("stops with a message naming every missing setting of an incomplete set", () => {
    const message = (env: Record<string, string>) => {
      try {
        parseConfig({ ...secret, ...env });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    const keyless = message({ MEDIA_S3_BUCKET: "akhbar-media", MEDIA_S3_REGION: "auto" });
    expect(keyless).toContain("MEDIA_S3_ACCESS_KEY_ID: required with MEDIA_S3_BUCKET");
    expect(keyless).toContain("MEDIA_S3_SECRET_ACCESS_KEY: required with MEDIA_S3_BUCKET");
    expect(message({ ...bucket, MEDIA_S3_REGION: "" })).toContain("MEDIA_S3_REGION: required with MEDIA_S3_BUCKET");
    expect(message({ MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000", MEDIA_S3_ACCESS_KEY_ID: "key" })).toMatch(/MEDIA_S3_ENDPOINT: set without MEDIA_S3_BUCKET[\s\S]*MEDIA_S3_ACCESS_KEY_ID: set without/);
    expect(message({ MEDIA_PUBLIC_URL: "https://cdn.example.com" })).toContain("MEDIA_PUBLIC_URL: set without MEDIA_S3_BUCKET");
    expect(message({ ...bucket, MEDIA_S3_ENDPOINT: "minio:9000" })).toContain("MEDIA_S3_ENDPOINT");
    expect(message({ ...bucket, MEDIA_S3_BUCKET: "a/b" })).toContain("MEDIA_S3_BUCKET: not a bucket name");
    expect(message({ ...bucket, MEDIA_PUBLIC_URL: "cdn.example.com" })).toContain("MEDIA_PUBLIC_URL");
  });
});
