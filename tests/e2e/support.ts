import Database from "better-sqlite3";
import { expect, type Page } from "@playwright/test";
import { E2E_SERVERS } from "./servers";

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

export function run(sql: string, ...params: unknown[]): void {
  const db = demoDatabase();
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** Fails the test on any console error, such as a hydration mismatch. */
export function watchConsole(page: Page): () => void {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource|youtube/i.test(message.text())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return () => expect(errors, errors.join("\n")).toEqual([]);
}

export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.dataset.hydrated === "islands" || (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined,
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
