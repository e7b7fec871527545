import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_POOL_SIZE, isPostgresUrl } from "~/server/db/dialect.server";

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
    if (bad.length > 0) ctx.addIssue({ code: "custom", message: `not an address, CIDR, hop count or loopback/linklocal/uniquelocal: ${bad.join(", ")}` });
    return entries;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  WORKERS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(256).optional()),
  HOST: z.string().min(1).default("127.0.0.1"),
  // Empty counts as unset, as `BASE_URL=` in an env file means.
  BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: z.string().min(1).default("./data/akhbar.db"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_POOL_SIZE),
  MEDIA_DIR: z.string().min(1).default("./data/media"),
  AUTH_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional()),
  DEMO_CONTENT: z.enum(["on", "off"]).default("on"),
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  STREAM_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  STREAM_MAX_TOTAL: z.coerce.number().int().min(1).default(5_000),
  TRUST_PROXY: trustProxySchema,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = {
  port: number;
  host: string;
  /** Server processes sharing the port (node:cluster); 1: one plain process. */
  workers: number;
  baseUrl: string;
  databaseUrl: string;
  /** Connections to PostgreSQL that one server process keeps open at most. */
  databasePoolSize: number;
  mediaDir: string;
  authSecret: string;
  demoContent: boolean;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** How long an anonymous page stays in the in-process page cache; 0 turns it off. */
  pageCacheSeconds: number;
  /** Caps on open breaking-news streams, per client address and in total, as configured for all workers together. */
  streams: { perIp: number; total: number };
  trustProxy: TrustProxy;
  /** The origins a state-changing request may come from: BASE_URL's, or the loopback spellings of the default. */
  siteOrigins: string[];
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
  return {
    port: e.PORT,
    host: e.HOST,
    workers: e.WORKERS ?? availableParallelism(),
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    mediaDir: path.resolve(e.MEDIA_DIR),
    authSecret: e.AUTH_SECRET ?? readOrCreateSecret(),
    demoContent: e.DEMO_CONTENT === "on",
    logLevel: e.LOG_LEVEL,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    streams: { perIp: e.STREAM_MAX_PER_IP, total: e.STREAM_MAX_TOTAL },
    trustProxy: e.TRUST_PROXY,
    siteOrigins: e.BASE_URL ? [new URL(e.BASE_URL).origin] : LOOPBACK_HOSTS.map((host) => `http://${host}:${e.PORT}`),
  };
}

export type DataLocations = {
  databaseUrl: string;
  mediaDir: string;
  authSecretFromEnv: boolean;
  /** Where the site's server listens when it runs. */
  server: { host: string; port: number };
};

/** Where the site's data lives, read from the environment without generating a secret (backup, restore). */
export function dataLocations(env: NodeJS.ProcessEnv): DataLocations {
  const e = envSchema.pick({ DATABASE_URL: true, MEDIA_DIR: true, HOST: true, PORT: true }).parse(env);
  return {
    databaseUrl: e.DATABASE_URL,
    mediaDir: path.resolve(e.MEDIA_DIR),
    authSecretFromEnv: Boolean(env.AUTH_SECRET),
    server: { host: e.HOST, port: e.PORT },
  };
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
