/**
 * Accounts (decision 023) in Chromium, on a site of this spec's own (the real built server, mail through a
 * local SMTP server; E2E_POSTGRES=1 puts it on PostgreSQL): the shared demo sites have many admins, and
 * the last-admin guard needs a site with one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { accountMessages, authErrors, newsroomMessages, roleLabels } from "../../app/lib/newsroom-messages";
import { openDatabase, type DB } from "../../app/server/db/db.server";
import { createTestAccount, TEST_PASSWORD } from "../../harness/accounts";
import { createPostgresDatabase, type TempPostgres } from "../../harness/postgres";
import { linkIn, startSmtpServer, type SmtpServer } from "../support/smtp";
import { startTestServer, type TestServer } from "../../harness/test-server";
import { hydrated } from "./support";
import { expect, test } from "./test";

let server: TestServer;
let smtp: SmtpServer;
let db: DB;
let postgres: TempPostgres | undefined;
let dir = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-accounts-e2e-"));
  postgres = process.env.E2E_POSTGRES === "1" ? await createPostgresDatabase("akhbar_accounts_") : undefined;
  smtp = await startSmtpServer();
  server = await startTestServer({ SMTP_URL: smtp.url, DATABASE_URL: postgres?.url ?? path.join(dir, "accounts.db") });
  db = openDatabase(server.env.DATABASE_URL);
  await createTestAccount(db, server.site, { email: "chief@example.com", username: "رئيسة التحرير", role: "admin" });
});
test.afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await smtp?.stop();
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto(`${server.url}/autenction?redirectTo=%2Fdashboard%2Faccount`);
  await page.getByLabel(newsroomMessages.email).fill(email);
  await page.getByLabel(newsroomMessages.password).fill(password);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
  await expect(page.getByRole("heading", { level: 1, name: accountMessages.accountTitle })).toBeVisible();
}

async function refusedSignIn(
  page: Page,
  email: string,
  password: string,
  reason: keyof typeof authErrors,
): Promise<void> {
  await page.goto(`${server.url}/autenction`);
  await page.getByLabel(newsroomMessages.email).fill(email);
  await page.getByLabel(newsroomMessages.password).fill(password);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
  await expect(page.getByTestId("auth-error")).toContainText(authErrors[reason].arabic);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

function row(page: Page, email: string) {
  return page.locator(`[data-testid="user-row"][data-email="${email}"]`);
}

async function usersPage(page: Page): Promise<void> {
  await page.goto(`${server.url}/dashboard/users`);
  await hydrated(page);
}

test("an admin disables an editor, whose open session ends at its next navigation; enabling lets them back", async ({
  browser,
}) => {
  await createTestAccount(db, server.site, { email: "editor@example.com", username: "محرر الأخبار", role: "editor" });
  const editor = await newPage(browser);
  await signIn(editor, "editor@example.com");
  await editor.goto(`${server.url}/dashboard`);
  await expect(editor.getByRole("heading", { level: 1, name: messages.dashboard })).toBeVisible();

  const admin = await newPage(browser);
  await signIn(admin, "chief@example.com");
  await usersPage(admin);
  admin.once("dialog", (dialog) => void dialog.accept());
  await row(admin, "editor@example.com").getByRole("button", { name: accountMessages.disableAccount }).click();
  await expect(admin.getByRole("status").filter({ hasText: accountMessages.accountDisabledDone })).toBeVisible();
  await expect(row(admin, "editor@example.com")).toContainText(accountMessages.accountDisabledBadge);

  await editor.goto(`${server.url}/dashboard`);
  await expect(editor).toHaveURL(/\/autenction\?redirectTo=%2Fdashboard/);
  await refusedSignIn(editor, "editor@example.com", TEST_PASSWORD, "account-disabled");

  await row(admin, "editor@example.com").getByRole("button", { name: accountMessages.enableAccount }).click();
  await expect(admin.getByRole("status").filter({ hasText: accountMessages.accountEnabledDone })).toBeVisible();
  await signIn(editor, "editor@example.com");
});

test("role changes, and the last admin cannot demote themselves", async ({ browser }) => {
  await createTestAccount(db, server.site, { email: "writer@example.com", username: "كاتبة", role: "author" });
  const admin = await newPage(browser);
  await signIn(admin, "chief@example.com");
  await usersPage(admin);
  const writer = row(admin, "writer@example.com");
  await writer.getByLabel(accountMessages.userRole).selectOption("editor");
  await writer.getByRole("button", { name: accountMessages.changeRole }).click();
  await expect(admin.getByRole("status").filter({ hasText: accountMessages.roleChanged })).toBeVisible();
  await expect(row(admin, "writer@example.com").getByLabel(accountMessages.userRole)).toHaveValue("editor");

  const me = row(admin, "chief@example.com");
  await me.getByLabel(accountMessages.userRole).selectOption({ label: roleLabels.author });
  await me.getByRole("button", { name: accountMessages.changeRole }).click();
  await expect(admin.getByRole("alert")).toHaveText(accountMessages.lastAdmin);
  await admin.reload();
  await expect(row(admin, "chief@example.com").getByLabel(accountMessages.userRole)).toHaveValue("admin");
});

test("a user changes their password and signs in with the new one; the old one is refused", async ({ browser }) => {
  await createTestAccount(db, server.site, { email: "reader@example.com", username: "قارئة", role: "user" });
  const page = await newPage(browser);
  await signIn(page, "reader@example.com");
  await hydrated(page);
  await page.getByLabel(accountMessages.currentPassword).fill(TEST_PASSWORD);
  await page.getByLabel(accountMessages.newPassword).fill("a-new-secret");
  await page.getByRole("button", { name: accountMessages.changePassword }).click();
  await expect(page.getByRole("status").filter({ hasText: accountMessages.passwordChanged })).toBeVisible();
  await page.getByRole("button", { name: messages.signOut }).first().click();
  await expect(page.getByRole("link", { name: messages.signIn }).first()).toBeVisible();
  await refusedSignIn(page, "reader@example.com", TEST_PASSWORD, "wrong-password");
  await signIn(page, "reader@example.com", "a-new-secret");
});

test("an admin resets a password to a one-time password, shown once, that signs in", async ({ browser }) => {
  await createTestAccount(db, server.site, { email: "forgetful@example.com", username: "ناسٍ", role: "author" });
  const admin = await newPage(browser);
  await signIn(admin, "chief@example.com");
  await usersPage(admin);
  admin.once("dialog", (dialog) => void dialog.accept());
  await row(admin, "forgetful@example.com").getByRole("button", { name: accountMessages.oneTimePassword }).click();
  const password = (await admin.getByTestId("one-time-password").textContent())?.trim() ?? "";
  expect(password.length).toBeGreaterThanOrEqual(12);
  await admin.reload();
  await expect(admin.getByTestId("one-time-password")).toHaveCount(0);

  const user = await newPage(browser);
  await refusedSignIn(user, "forgetful@example.com", TEST_PASSWORD, "wrong-password");
  await signIn(user, "forgetful@example.com", password);
});

test("forgot password on the sign-in page mails a link that sets a new password once", async ({ browser }) => {
  await createTestAccount(db, server.site, { email: "mailme@example.com", username: "صاحب البريد", role: "editor" });
  const page = await newPage(browser);
  await page.goto(`${server.url}/autenction`);
  await page.getByRole("link", { name: accountMessages.forgotPassword }).click();
  await page.getByLabel(newsroomMessages.email).fill("mailme@example.com");
  await page.getByRole("button", { name: accountMessages.forgotSubmit }).click();
  await expect(page.getByRole("status")).toHaveText(accountMessages.forgotSent);

  const link = linkIn(await smtp.mailTo("mailme@example.com"));
  await page.goto(link);
  await page.getByLabel(accountMessages.newPassword).fill("from-the-mail");
  await page.getByRole("button", { name: accountMessages.resetSubmit }).click();
  await expect(page.getByRole("status")).toHaveText(accountMessages.resetDone);
  await signIn(page, "mailme@example.com", "from-the-mail");

  const again = await newPage(browser);
  await again.goto(link);
  await again.getByLabel(accountMessages.newPassword).fill("second-try");
  await again.getByRole("button", { name: accountMessages.resetSubmit }).click();
  await expect(again.getByRole("alert")).toHaveText(accountMessages.resetInvalid);
});
