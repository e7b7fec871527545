import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_POOL_SIZE, isPostgresUrl } from "~/server/platform/database-url.server";
import { isLoopbackHost } from "~/server/platform/loopback.server";

/** Express's names for address ranges, besides literal addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may tell us the client's address in X-Forwarded-For: none (the socket address is the
 * client), a number of hops, or a list of addresses, CIDRs and Express's range names.
 */
export type TrustProxy = false | number | string[];

const trustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxy => {
    if (value === undefined || value === "" || value === "false") return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0)
      ctx.addIssue({
        code: "custom",
        message: `not an address, CIDR, hop count or loopback/linklocal/uniquelocal: ${bad.join(", ")}`,
      });
    return entries;
  });

/** Empty counts as unset, as `NAME=` in an env file means. */
const emptyAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  VIEWS_PORT: emptyAsUnset(z.coerce.number().int().min(1).max(65_535).optional()),
  WORKERS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(256).optional()),
  HOST: z.string().min(1).default("127.0.0.1"),
  BASE_URL: emptyAsUnset(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: z.string().min(1).default("./data/akhbar.db"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_POOL_SIZE),
  RENDER_SLOTS: emptyAsUnset(z.coerce.number().int().min(1).max(256).optional()),
  MEDIA_DIR: z.string().min(1).default("./data/media"),
  MEDIA_S3_BUCKET: emptyAsUnset(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,62}$/, "not a bucket name (3 to 63 letters, digits, dots, dashes)")
      .optional(),
  ),
  MEDIA_S3_ENDPOINT: emptyAsUnset(z.url({ protocol: /^https?$/ }).optional()),
  MEDIA_S3_REGION: emptyAsUnset(
    z
      .string()
      .regex(/^[a-z0-9-]+$/, "not a region name (e.g. us-east-1, or auto for R2)")
      .optional(),
  ),
  MEDIA_S3_ACCESS_KEY_ID: emptyAsUnset(z.string().optional()),
  MEDIA_S3_SECRET_ACCESS_KEY: emptyAsUnset(z.string().optional()),
  MEDIA_PUBLIC_URL: emptyAsUnset(z.url({ protocol: /^https?$/ }).optional()),
  AUTH_SECRET: emptyAsUnset(z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional()),
  DEMO_CONTENT: z.enum(["on", "off"]).default("on"),
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  STREAM_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  STREAM_MAX_TOTAL: z.coerce.number().int().min(1).default(5_000),
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(10_000).default(5_000),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  TRUST_PROXY: trustProxySchema,
  SMTP_URL: emptyAsUnset(
    z
      .url({ protocol: /^smtps?$/, error: "SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465" })
      .optional(),
  ),
  MAIL_FROM: emptyAsUnset(
    z
      .string()
      .regex(/^[^\r\n]{3,200}$/, "MAIL_FROM must be one line, e.g. Akhbar <newsroom@example.com>")
      .optional(),
  ),
  DKIM_PRIVATE_KEY: emptyAsUnset(z.string().optional()),
  DKIM_PRIVATE_KEY_FILE: emptyAsUnset(z.string().optional()),
  DKIM_SELECTOR: emptyAsUnset(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "DKIM_SELECTOR must be a DNS label, e.g. akhbar2026")
      .optional(),
  ),
  DKIM_DOMAIN: emptyAsUnset(z.string().optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TEST_CLOCK_FILE: emptyAsUnset(z.string().optional()),
  TEST_LOOPBACK_PUSH: emptyAsUnset(z.literal("1", { error: "TEST_LOOPBACK_PUSH must be 1 or unset" }).optional()),
});

/** An S3-compatible bucket for media: AWS when there is no endpoint; R2, B2, MinIO by their endpoint. */
export type S3Settings = {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
};

export type Config = {
  port: number;
  /** A port of its own for readers' views, served by a process that serves nothing else (decision 042); null: the site's workers take them. */
  viewsPort: number | null;
  host: string;
  /** Server processes sharing the port (node:cluster); 1: one plain process. */
  workers: number;
  baseUrl: string;
  databaseUrl: string;
  /** Connections to PostgreSQL that one server process keeps open at most. */
  databasePoolSize: number;
  /** Pages one process renders at once; the rest wait their turn (docs/decisions/026). */
  renderSlots: number;
  /** The media folder; with a bucket, only uploads in flight are staged there. */
  mediaDir: string;
  /** Media in a bucket instead of the folder; null for the folder. */
  mediaS3: S3Settings | null;
  /** With a bucket: where readers fetch media (a CDN or the bucket's public address); /media/<name> redirects there. */
  mediaPublicUrl: string | null;
  authSecret: string;
  demoContent: boolean;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** How long an anonymous page stays in the in-process page cache; 0 turns it off. */
  pageCacheSeconds: number;
  /** Caps on open breaking-news streams, per client address and in total, as configured for all workers together. */
  streams: { perIp: number; total: number };
  /** How often each process looks for scheduled articles whose time has come. */
  schedulerIntervalMs: number;
  /** After SIGTERM/SIGINT, how long requests in flight may take before their connections are cut. */
  shutdownGraceMs: number;
  trustProxy: TrustProxy;
  /** Outgoing mail (reset links, invitations, the newsletter); null: those controls say how to turn it on. */
  mail: { smtpUrl: string; from: string; dkim: DkimKey | null } | null;
  /** The origins a state-changing request may come from: BASE_URL's, or the loopback spellings of the default. */
  siteOrigins: string[];
  /** Tests only: a file holding how far (ms) the scheduler's and the trash purge's clock is ahead of the real one (clock.server.ts). */
  testClockFile: string | null;
  /** Tests only: push subscriptions on this machine (http or https) are taken and sent to, where the tests' push service runs. */
  testLoopbackPush: boolean;
};

const DATA_DIR = "./data";
export const AUTH_SECRET_FILE = path.join(DATA_DIR, "auth-secret");
/** The default address is localhost; a browser may as well open it as 127.0.0.1 or [::1]. */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The secret is generated once and kept beside the data, so sessions survive restarts. It is written
 * whole to a file of this process's own, then linked into place: link() fails when the name exists,
 * so of several processes starting together exactly one secret wins, and every process reads that one.
 */
export function readOrCreateSecret(file = AUTH_SECRET_FILE): string {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(draft, randomBytes(32).toString("hex"), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return readFileSync(file, "utf8").trim();
}

/** Configuration the server cannot start with; the message says what to change, and is all an operator sees. */
export class ConfigurationError extends Error {}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigurationError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = result.data;
  if (isPostgresUrl(e.DATABASE_URL) && e.AUTH_SECRET === undefined) {
    throw new ConfigurationError(
      "Invalid configuration:\n  AUTH_SECRET: required with PostgreSQL: every server on the database must sign sessions with the same secret. Set AUTH_SECRET to at least 32 random characters (e.g. openssl rand -hex 32) on every machine.",
    );
  }
  if (e.VIEWS_PORT === e.PORT)
    throw new ConfigurationError(
      `Invalid configuration:\n  VIEWS_PORT: the views process needs a port of its own, not PORT (${e.PORT}); e.g. VIEWS_PORT=${e.PORT + 1}`,
    );
  const media = mediaStorageOf(e);
  return {
    port: e.PORT,
    viewsPort: e.VIEWS_PORT ?? null,
    host: e.HOST,
    workers: e.WORKERS ?? availableParallelism(),
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    renderSlots: e.RENDER_SLOTS ?? defaultRenderSlots(e.DATABASE_URL),
    mediaDir: path.resolve(e.MEDIA_DIR),
    mediaS3: media.s3,
    mediaPublicUrl: media.publicUrl,
    authSecret: e.AUTH_SECRET ?? readOrCreateSecret(),
    demoContent: e.DEMO_CONTENT === "on",
    logLevel: e.LOG_LEVEL,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    streams: { perIp: e.STREAM_MAX_PER_IP, total: e.STREAM_MAX_TOTAL },
    schedulerIntervalMs: e.SCHEDULER_INTERVAL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    trustProxy: e.TRUST_PROXY,
    mail: e.SMTP_URL ? mailOf(e, e.SMTP_URL) : null,
    siteOrigins: e.BASE_URL ? [new URL(e.BASE_URL).origin] : LOOPBACK_HOSTS.map((host) => `http://${host}:${e.PORT}`),
    testClockFile: testOnly(e, "TEST_CLOCK_FILE") ? path.resolve(e.TEST_CLOCK_FILE!) : null,
    testLoopbackPush: testOnly(e, "TEST_LOOPBACK_PUSH"),
  };
}

/** Whether a setting for tests is set: only on a server this machine alone can reach and that names no real site. */
function testOnly(e: Env, name: "TEST_CLOCK_FILE" | "TEST_LOOPBACK_PUSH"): boolean {
  if (e[name] === undefined) return false;
  const siteHost = e.BASE_URL === undefined ? "localhost" : new URL(e.BASE_URL).hostname;
  if (!isLoopbackHost(e.HOST) || !isLoopbackHost(siteHost)) {
    throw new ConfigurationError(
      `Invalid configuration:\n  ${name}: for tests only, on a server that HOST and BASE_URL keep on this machine (127.0.0.1, ::1 or localhost); remove it on a real site.`,
    );
  }
  return true;
}

type Env = z.infer<typeof envSchema>;

/**
 * SQLite answers a page's reads without leaving the event loop, so two slots let one page render while
 * the other is compressed; PostgreSQL's round trips leave gaps that two more fill (docs/decisions/026).
 */
function defaultRenderSlots(databaseUrl: string): number {
  return isPostgresUrl(databaseUrl) ? 4 : 2;
}

const S3_SETTINGS = [
  "MEDIA_S3_ENDPOINT",
  "MEDIA_S3_REGION",
  "MEDIA_S3_ACCESS_KEY_ID",
  "MEDIA_S3_SECRET_ACCESS_KEY",
  "MEDIA_PUBLIC_URL",
] as const;
const S3_REQUIRED = ["MEDIA_S3_REGION", "MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY"] as const;

/** The bucket settings, complete or absent: a partial set is a mistake the operator must hear about. */
function mediaStorageOf(e: Env): { s3: S3Settings | null; publicUrl: string | null } {
  const invalid = (problems: string[]) =>
    new ConfigurationError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  if (e.MEDIA_S3_BUCKET === undefined) {
    const stray = S3_SETTINGS.filter((name) => e[name] !== undefined);
    if (stray.length > 0)
      throw invalid(
        stray.map(
          (name) => `${name}: set without MEDIA_S3_BUCKET; set the bucket too, or remove it to keep media in MEDIA_DIR`,
        ),
      );
    return { s3: null, publicUrl: null };
  }
  const missing = S3_REQUIRED.filter((name) => e[name] === undefined);
  if (missing.length > 0) throw invalid(missing.map((name) => `${name}: required with MEDIA_S3_BUCKET`));
  return {
    s3: {
      bucket: e.MEDIA_S3_BUCKET,
      region: e.MEDIA_S3_REGION!,
      endpoint: e.MEDIA_S3_ENDPOINT?.replace(/\/+$/, ""),
      accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID!,
      secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY!,
    },
    publicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, "") ?? null,
  };
}

export type DataLocations = {
  databaseUrl: string;
  mediaDir: string;
  /** The bucket media are kept in instead of mediaDir, if any: a backup does not copy it. */
  mediaBucket: string | null;
  authSecretFromEnv: boolean;
  /** Where the site's server listens when it runs. */
  server: { host: string; port: number };
};

/** Where the site's data lives, read from the environment without generating a secret (backup, restore). */
export function dataLocations(env: NodeJS.ProcessEnv): DataLocations {
  const e = envSchema
    .pick({ DATABASE_URL: true, MEDIA_DIR: true, MEDIA_S3_BUCKET: true, HOST: true, PORT: true })
    .parse(env);
  return {
    databaseUrl: e.DATABASE_URL,
    mediaDir: path.resolve(e.MEDIA_DIR),
    mediaBucket: e.MEDIA_S3_BUCKET ?? null,
    authSecretFromEnv: Boolean(env.AUTH_SECRET),
    server: { host: e.HOST, port: e.PORT },
  };
}

/** What backup and restore say when media live in a bucket, which they never copy. */
export function bucketNotInBackup(bucket: string): string {
  return `Media are kept in the bucket ${bucket} (MEDIA_S3_BUCKET) and are not part of this backup: keep the bucket's own copies (versioning, replication, or rclone sync to another place).`;
}

/** LOG_LEVEL alone, for the logger made at import time; an invalid value is reported when config() is read at start. */
export function logLevelOf(env: NodeJS.ProcessEnv): Config["logLevel"] {
  return envSchema.shape.LOG_LEVEL.catch("info").parse(env.LOG_LEVEL);
}

let current: Config | undefined;

/** Configuration, parsed once from the environment. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/** The key the site signs its mail with, its DNS selector and the domain it signs for. */
export type DkimKey = { privateKey: string; selector: string; domain: string };

/** The address a From line names ("Akhbar <news@example.com>" or a bare address). */
function addressOfFrom(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

function mailOf(e: Env, smtpUrl: string): NonNullable<Config["mail"]> {
  const from = e.MAIL_FROM ?? `Akhbar <no-reply@${new URL(e.BASE_URL ?? "http://localhost").hostname}>`;
  const key = e.DKIM_PRIVATE_KEY_FILE
    ? readFileSync(e.DKIM_PRIVATE_KEY_FILE, "utf8")
    : e.DKIM_PRIVATE_KEY?.replace(/\\n/g, "\n");
  if (key && !e.DKIM_SELECTOR)
    throw new Error("DKIM_SELECTOR must be set beside the DKIM key, e.g. DKIM_SELECTOR=akhbar");
  if (key && !/-----BEGIN (RSA )?PRIVATE KEY-----/.test(key))
    throw new Error("the DKIM key must be a PEM private key (-----BEGIN PRIVATE KEY-----)");
  const domain = e.DKIM_DOMAIN ?? addressOfFrom(from).split("@")[1] ?? "";
  return {
    smtpUrl,
    from,
    dkim: key && e.DKIM_SELECTOR ? { privateKey: key, selector: e.DKIM_SELECTOR, domain } : null,
  };
}
