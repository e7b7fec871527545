import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server";
import { streamLimitsOfThisProcess } from "~/server/site/site.server";

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
      expect(() => parseConfig({ DATABASE_URL: url, AUTH_SECRET: "" })).toThrow(
        /AUTH_SECRET: required with PostgreSQL/,
      );
    }
    expect(
      parseConfig({ DATABASE_URL: "postgres://db/akhbar", DATABASE_POOL_SIZE: "25", AUTH_SECRET: secret })
        .databasePoolSize,
    ).toBe(25);
    for (const size of ["0", "-1", "2.5", "many"]) {
      expect(() => parseConfig({ DATABASE_POOL_SIZE: size, AUTH_SECRET: secret })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});

describe("RENDER_SLOTS", () => {
  const secret = "s".repeat(32);
  it("defaults by engine, takes a number, and refuses anything else", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).renderSlots).toBe(2);
    expect(parseConfig({ DATABASE_URL: "postgres://db/akhbar", AUTH_SECRET: secret }).renderSlots).toBe(4);
    expect(parseConfig({ RENDER_SLOTS: "8", AUTH_SECRET: secret }).renderSlots).toBe(8);
    expect(parseConfig({ RENDER_SLOTS: "", AUTH_SECRET: secret }).renderSlots).toBe(2);
    for (const slots of ["0", "-1", "1.5", "all"]) {
      expect(() => parseConfig({ RENDER_SLOTS: slots, AUTH_SECRET: secret })).toThrow(/RENDER_SLOTS/);
    }
  });
});

describe("TRUST_PROXY", () => {
  const parse = (value?: string) =>
    parseConfig({ AUTH_SECRET: "s".repeat(32), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;

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
    for (const bad of ["true", "nginx", "10.0.0.0/33", "10.0.0.1/8/2", "1.2.3", "-1"])
      expect(() => parse(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

describe("VIEWS_PORT", () => {
  const parse = (env: Record<string, string>) => parseConfig({ AUTH_SECRET: "s".repeat(32), ...env }).viewsPort;

  it("is off unless set, and takes a port", () => {
    expect(parse({})).toBeNull();
    expect(parse({ VIEWS_PORT: "" })).toBeNull();
    expect(parse({ VIEWS_PORT: "3001" })).toBe(3001);
  });

  it("stops on a value that is not a port, and on the site's own port", () => {
    for (const bad of ["0", "70000", "views", "30.5"])
      expect(() => parse({ VIEWS_PORT: bad }), bad).toThrow(/VIEWS_PORT/);
    expect(() => parse({ PORT: "3000", VIEWS_PORT: "3000" })).toThrow(
      /VIEWS_PORT: the views process needs a port of its own, not PORT \(3000\); e\.g\. VIEWS_PORT=3001/,
    );
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
    const r2 = parseConfig({
      ...secret,
      ...bucket,
      MEDIA_S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com/",
      MEDIA_PUBLIC_URL: "https://media.example.com/",
    });
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
    expect(message({ MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000", MEDIA_S3_ACCESS_KEY_ID: "key" })).toMatch(
      /MEDIA_S3_ENDPOINT: set without MEDIA_S3_BUCKET[\s\S]*MEDIA_S3_ACCESS_KEY_ID: set without/,
    );
    expect(message({ MEDIA_PUBLIC_URL: "https://cdn.example.com" })).toContain(
      "MEDIA_PUBLIC_URL: set without MEDIA_S3_BUCKET",
    );
    expect(message({ ...bucket, MEDIA_S3_ENDPOINT: "minio:9000" })).toContain("MEDIA_S3_ENDPOINT");
    expect(message({ ...bucket, MEDIA_S3_BUCKET: "a/b" })).toContain("MEDIA_S3_BUCKET: not a bucket name");
    expect(message({ ...bucket, MEDIA_PUBLIC_URL: "cdn.example.com" })).toContain("MEDIA_PUBLIC_URL");
  });
});

describe("SCHEDULER_INTERVAL_MS", () => {
  const parse = (value?: string) =>
    parseConfig({ AUTH_SECRET: "s".repeat(32), ...(value === undefined ? {} : { SCHEDULER_INTERVAL_MS: value }) })
      .schedulerIntervalMs;

  it("looks every 5 s by default, and at most every 10 s so a scheduled article goes out well within 30 s", () => {
    expect(parse()).toBe(5_000);
    expect(parse("200")).toBe(200);
    for (const value of ["30000", "0", "fast"]) expect(() => parse(value)).toThrow(/SCHEDULER_INTERVAL_MS/);
  });
});

describe("TEST_CLOCK_FILE", () => {
  const parse = (env: Record<string, string>) => parseConfig({ AUTH_SECRET: "s".repeat(32), ...env }).testClockFile;

  it("is off unless set, and taken for a server on this machine only", () => {
    expect(parse({})).toBeNull();
    expect(parse({ TEST_CLOCK_FILE: "" })).toBeNull();
    expect(parse({ TEST_CLOCK_FILE: "/tmp/clock" })).toBe("/tmp/clock");
    for (const [HOST, BASE_URL] of [
      ["127.0.0.1", "http://127.0.0.1:4600"],
      ["::1", "http://[::1]:4600"],
      ["localhost", "http://localhost:3000"],
    ] as const) {
      expect(parse({ TEST_CLOCK_FILE: "/tmp/clock", HOST, BASE_URL })).toBe("/tmp/clock");
    }
  });

  it("stops a server other machines reach, or one that names a real site", () => {
    for (const env of UNSAFE_FOR_TESTS) {
      expect(() => parse({ TEST_CLOCK_FILE: "/tmp/clock", ...env })).toThrow(/TEST_CLOCK_FILE: for tests only/);
    }
  });
});

const UNSAFE_FOR_TESTS: Record<string, string>[] = [
  { HOST: "0.0.0.0" },
  { HOST: "10.0.0.5" },
  { HOST: "127.0.0.1", BASE_URL: "https://news.example.org" },
  { HOST: "::", BASE_URL: "http://127.0.0.1:3000" },
];

describe("TEST_LOOPBACK_PUSH", () => {
  const parse = (env: Record<string, string>) => parseConfig({ AUTH_SECRET: "s".repeat(32), ...env }).testLoopbackPush;

  it("is off unless set to 1, and taken for a server on this machine only", () => {
    expect(parse({})).toBe(false);
    expect(parse({ TEST_LOOPBACK_PUSH: "" })).toBe(false);
    expect(parse({ TEST_LOOPBACK_PUSH: "1", HOST: "127.0.0.1", BASE_URL: "http://127.0.0.1:4600" })).toBe(true);
    for (const value of ["0", "yes", "true"])
      expect(() => parse({ TEST_LOOPBACK_PUSH: value })).toThrow(/TEST_LOOPBACK_PUSH must be 1 or unset/);
    for (const env of UNSAFE_FOR_TESTS)
      expect(() => parse({ TEST_LOOPBACK_PUSH: "1", ...env })).toThrow(/TEST_LOOPBACK_PUSH: for tests only/);
  });
});

describe("SHUTDOWN_GRACE_SECONDS", () => {
  const parse = (value?: string) =>
    parseConfig({ AUTH_SECRET: "s".repeat(32), ...(value === undefined ? {} : { SHUTDOWN_GRACE_SECONDS: value }) })
      .shutdownGraceMs;

  it("is 10 s unless set, from 1 to 120 s", () => {
    expect(parse()).toBe(10_000);
    expect(parse("1")).toBe(1_000);
    expect(parse("120")).toBe(120_000);
    for (const value of ["0", "121", "2.5", "soon"]) expect(() => parse(value)).toThrow(/SHUTDOWN_GRACE_SECONDS/);
  });
});

describe("WORKERS", () => {
  const parse = (value?: string) =>
    parseConfig({ AUTH_SECRET: "s".repeat(32), ...(value === undefined ? {} : { WORKERS: value }) }).workers;

  it("uses every core by default, and takes a count", () => {
    expect(parse()).toBe(availableParallelism());
    expect(parse("")).toBe(availableParallelism());
    expect(parse("1")).toBe(1);
    expect(parse("6")).toBe(6);
  });

  it("stops with a clear message on a count that is not one", () => {
    for (const value of ["0", "-2", "1.5", "all"]) expect(() => parse(value)).toThrow(/WORKERS/);
  });

  it("splits the total stream cap between a cluster's workers; the per-address cap is the instance's, counted by its primary", () => {
    const cfg = { workers: 4, streams: { perIp: 20, total: 5_000 } };
    expect(streamLimitsOfThisProcess(cfg, true)).toEqual({ perIp: 20, total: 1_250 });
    expect(streamLimitsOfThisProcess({ ...cfg, streams: { perIp: 2, total: 3 } }, true)).toEqual({
      perIp: 2,
      total: 1,
    });
    expect(streamLimitsOfThisProcess(cfg, false)).toEqual({ perIp: 20, total: 5_000 });
  });
});

describe("the generated secret", () => {
  it("is the same for every process that starts at once without one", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "akhbar-secret-"));
    // Many data folders, each asked for its secret by every process in turn: a race on any one shows.
    const FOLDERS = 2_000;
    const PROCESSES = 4;
    // Every process loads first, then all begin at the same moment.
    const startAt = Date.now() + 5_000;
    const script = [
      `import { readOrCreateSecret } from "./app/server/platform/config.server.ts";`,
      `while (Date.now() < ${startAt});`,
      `const secrets = [];`,
      `for (let i = 0; i < ${FOLDERS}; i++) secrets.push(readOrCreateSecret(${JSON.stringify(dir)} + "/" + i + "/auth-secret"));`,
      `console.log(JSON.stringify(secrets));`,
    ].join("\n");
    try {
      const runs = await Promise.all(
        Array.from({ length: PROCESSES }, async () => {
          const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
            stdio: ["ignore", "pipe", "inherit"],
          });
          let out = "";
          child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
          await new Promise((resolve) => child.once("exit", resolve));
          return JSON.parse(out) as string[];
        }),
      );
      const differing = runs[0]!.filter((secret, i) => runs.some((run) => run[i] !== secret)).length;
      expect(differing).toBe(0);
      expect(runs[0]![0]).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(path.join(dir, "0", "auth-secret"), "utf8")).toBe(runs[0]![0]);
      expect(readdirSync(path.join(dir, "0"))).toEqual(["auth-secret"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("mail settings", () => {
  const secret = "s".repeat(32);
  it("is off without SMTP_URL, on with an smtp or smtps address, and refuses anything else", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).mail).toBeNull();
    expect(parseConfig({ AUTH_SECRET: secret, SMTP_URL: "" }).mail).toBeNull();
    expect(
      parseConfig({
        AUTH_SECRET: secret,
        SMTP_URL: "smtp://u:p@mail.example.com:587",
        BASE_URL: "https://news.example.com",
      }).mail,
    ).toEqual({
      smtpUrl: "smtp://u:p@mail.example.com:587",
      from: "Akhbar <no-reply@news.example.com>",
      dkim: null,
    });
    expect(
      parseConfig({
        AUTH_SECRET: secret,
        SMTP_URL: "smtps://mail.example.com",
        MAIL_FROM: "غرفة الأخبار <desk@example.com>",
      }).mail?.from,
    ).toBe("غرفة الأخبار <desk@example.com>");
    expect(() => parseConfig({ AUTH_SECRET: secret, SMTP_URL: "http://mail.example.com" })).toThrow(/SMTP_URL/);
    expect(() =>
      parseConfig({ AUTH_SECRET: secret, SMTP_URL: "smtp://x", MAIL_FROM: "a\r\nBcc: evil@example.com" }),
    ).toThrow(/MAIL_FROM/);
  });

  it("signs with a DKIM key for MAIL_FROM's domain under its selector, and refuses a key without one", () => {
    const key = "-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----";
    const mail = { AUTH_SECRET: secret, SMTP_URL: "smtp://x", MAIL_FROM: "Akhbar <news@akhbar.example>" };
    expect(parseConfig({ ...mail, DKIM_PRIVATE_KEY: key, DKIM_SELECTOR: "s2026" }).mail?.dkim).toEqual({
      privateKey: "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----",
      selector: "s2026",
      domain: "akhbar.example",
    });
    expect(() => parseConfig({ ...mail, DKIM_PRIVATE_KEY: key })).toThrow(/DKIM_SELECTOR/);
    expect(() => parseConfig({ ...mail, DKIM_PRIVATE_KEY: "not a key", DKIM_SELECTOR: "s" })).toThrow(/PEM/);
  });
});
