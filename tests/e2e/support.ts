import Database from "better-sqlite3";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, ConsoleMessage, Page } from "@playwright/test";
import type { Role } from "../../app/lib/constants";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { generatePassword } from "../../app/server/accounts/users.server";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import { createTestAccount, sessionCookie, type AuthServer } from "../../harness/accounts";
import { signIn, type Session } from "../../harness/http-client";
import { E2E_SERVERS, type E2EServer } from "./servers";
import { expect } from "@playwright/test";

export type Admin = { email: string; password: string };

/** What better-auth needs to act as `site`'s server does. */
const authOf = (site: E2EServer): AuthServer => ({ baseUrl: site.url, authSecret: site.env.AUTH_SECRET });

/**
 * A new account with `role` on a site, made in its database by the domain function that
 * `npm run user -- create-admin` and `set-role` call (tests/integration/permissions.test.ts runs the CLI itself).
 */
export async function createMember(
  role: Role,
  name: string,
  site: E2EServer = E2E_SERVERS.demo,
  emailPrefix = `roles-${role}`,
): Promise<Admin> {
  const account = {
    email: `${emailPrefix}-${Date.now()}@example.com`,
    username: name,
    role,
    password: generatePassword(),
  };
  await readSiteDatabase(site, (db) => createTestAccount(db, authOf(site), account));
  return { email: account.email, password: account.password };
}

/** A new admin on a site (by default this worker's demo server). */
export function createAdmin(emailPrefix: string, name: string, site: E2EServer = E2E_SERVERS.demo): Promise<Admin> {
  return createMember("admin", name, site, emailPrefix);
}

/** What a browser context opens with, as Playwright's `storageState` takes it. */
export type StorageState = { cookies: Cookie[]; origins: [] };
type Cookie = {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Lax";
};

/**
 * `account` signed in through better-auth's own API (as the server would on the sign-in form, whose
 * own specs are accounts.spec.ts and security-headers.spec.ts), as a context's storage state. No HTTP
 * sign-in, so the sign-in rate limit stays untouched.
 */
export async function sessionState(account: Admin, site: E2EServer = E2E_SERVERS.demo): Promise<StorageState> {
  const header = await readSiteDatabase(site, (db) => sessionCookie(db, authOf(site), account.email, account.password));
  const cookies = header.split("; ").map((pair) => {
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(name.length + 1);
    return {
      name,
      value,
      domain: "127.0.0.1",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: "Lax" as const,
    };
  });
  return { cookies, origins: [] };
}

/** `account`'s session (sessionState) saved to `file`, for contexts to open with it. */
export async function signedInState(account: Admin, file: string, site: E2EServer = E2E_SERVERS.demo): Promise<string> {
  const state = await sessionState(account, site);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state));
  return file;
}

/** A new browser context on `url` carrying a session's Cookie header (from harness/accounts' signedInAs). */
export async function contextWithSession(browser: Browser, url: string, cookieHeader: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: url });
  const cookies = cookieHeader
    .split("; ")
    .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url }));
  await context.addCookies(cookies);
  return context;
}

/** A new admin's session for the JSON admin API, outside any browser. */
export async function adminApiSession(emailPrefix: string): Promise<Session> {
  const { email, password } = await createAdmin(emailPrefix, "محرر الاختبار");
  return signIn(E2E_SERVERS.demo.url, email, password);
}

/** Reads a site's own database (SQLite or PostgreSQL) through the application's connection code. */
export async function readSiteDatabase<T>(site: E2EServer, read: (db: DB) => Promise<T>): Promise<T> {
  const db = openDatabase(site.env.DATABASE_URL, 1);
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

/** The id of the article with this title on the site. */
export function articleIdByTitle(site: E2EServer, title: string): Promise<string> {
  return readSiteDatabase(
    site,
    async (db) => (await db.selectFrom("news").select("id").where("title", "=", title).executeTakeFirstOrThrow()).id,
  );
}

/** Opens the demo server's real database file (WAL lets it be read and written beside the server). */
export function demoDatabase() {
  const db = new Database(E2E_SERVERS.demo.env.DATABASE_URL);
  db.pragma("busy_timeout = 5000");
  return db;
}

export function queryOne<T>(sql: string, ...params: unknown[]): T {
  const db = demoDatabase();
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

export function queryAll<T>(sql: string, ...params: unknown[]): T[] {
  const db = demoDatabase();
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** A console message that fails a test: an error, but not a resource the browser could not load, nor YouTube's. */
const failsTest = (message: ConsoleMessage) =>
  message.type() === "error" && !/Failed to load resource|youtube/i.test(message.text());

/** Fails the test on any console error, such as a hydration mismatch. */
export function watchConsole(page: Page): () => void {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (failsTest(message)) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return () => expect(errors, errors.join("\n")).toEqual([]);
}

/** The console errors and uncaught errors `page` has had since it opened, as watchConsole counts them. */
export async function consoleErrorsSoFar(page: Page): Promise<string[]> {
  const logged = (await page.consoleMessages()).filter(failsTest).map((message) => message.text());
  return [...logged, ...(await page.pageErrors()).map((error) => error.message)];
}

export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.hydrated === "islands" ||
      (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
  );
  await page.waitForLoadState("networkidle");
}

/** Clicks, answers the alert or confirm it opens, and returns what it said. */
export async function dialogAfter(page: Page, click: () => Promise<void>): Promise<string> {
  let said = "";
  page.once("dialog", (dialog) => {
    said = dialog.message();
    void dialog.accept();
  });
  await click();
  await expect.poll(() => said).not.toBe("");
  return said;
}

/** Replaces the text of the article form's body editor with `text`, one paragraph per line, as typed. */
export async function fillBody(page: Page, text: string): Promise<void> {
  const editor = page.getByRole("textbox", { name: newsroomMessages.fieldContent });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  for (const [index, line] of text.split(/\n+/).entries()) {
    if (index > 0) await page.keyboard.press("Enter");
    await page.keyboard.insertText(line);
  }
}

/** The body editor of the article form. */
export function bodyEditor(page: Page) {
  return page.getByRole("textbox", { name: newsroomMessages.fieldContent });
}

/** `seconds` ahead of `site`'s clock, as the form's datetime-local input takes it: a wall time in Beirut, to the second. */
export function beirutWallTimeAhead(site: E2EServer, seconds: number): string {
  return new Date(site.clock.now() + seconds * 1000)
    .toLocaleString("sv-SE", { timeZone: "Asia/Beirut" })
    .replace(" ", "T");
}
