import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { authErrors, newsroomMessages } from "../../app/lib/newsroom-messages";
import { setRole } from "../../app/server/accounts/users.server";
import { E2E_SERVERS } from "./servers";
import { hydrated, readSiteDatabase } from "./support";
import { expect, test } from "./test";

const email = `reader-${Date.now()}@example.com`;
const password = "qamar-2026";

/** What `npm run user -- promote` and `demote` do (tests/integration/permissions.test.ts runs the CLI itself). */
function giveRole(address: string, role: "admin" | "user"): Promise<boolean> {
  return readSiteDatabase(E2E_SERVERS.demo, (db) => setRole(db, address, role));
}

async function signInThroughForm(page: Page, address: string, secret: string) {
  await page.getByLabel(newsroomMessages.email).fill(address);
  await page.getByLabel(newsroomMessages.password).fill(secret);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
}

test.describe.configure({ mode: "serial" });

test("a reader registers, signs out and signs back in", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("banner").getByRole("link", { name: messages.signIn }).click();
  await expect(page).toHaveURL(/\/autenction$/);
  await hydrated(page);
  await page.getByRole("link", { name: newsroomMessages.signUpTitle }).click();
  await page.getByLabel(newsroomMessages.username).fill("قمر");
  await page.getByLabel(newsroomMessages.email).fill(email);
  await page.getByLabel(newsroomMessages.password).fill(password);
  await page.getByRole("button", { name: newsroomMessages.signUpSubmit }).click();

  await expect(page).toHaveURL(`${E2E_SERVERS.demo.url}/`);
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("button", { name: messages.signOut })).toBeVisible();
  await expect(banner.getByRole("link", { name: messages.dashboard })).toHaveCount(0);

  await banner.getByRole("button", { name: messages.signOut }).click();
  await expect(banner.getByRole("link", { name: messages.signIn })).toBeVisible();

  await page.goto("/autenction");
  await signInThroughForm(page, email, password);
  await expect(page).toHaveURL(`${E2E_SERVERS.demo.url}/`);
  await expect(banner.getByRole("button", { name: messages.signOut })).toBeVisible();
});

test("a wrong password and an unknown email each get their message in place", async ({ page }) => {
  await page.goto("/autenction");
  await hydrated(page);
  await signInThroughForm(page, email, "not-the-password");
  await expect(page.getByTestId("auth-error")).toContainText(authErrors["wrong-password"].catalogue);
  await expect(page.getByTestId("auth-error")).toContainText(authErrors["wrong-password"].arabic);
  await signInThroughForm(page, "nobody-here@example.com", password);
  await expect(page.getByTestId("auth-error")).toContainText(authErrors["user-not-found"].catalogue);
  await expect(page).toHaveURL(/\/autenction/);
});

test("the dashboard link appears once the account is promoted to admin, in the navbar and the mobile menu", async ({
  page,
}) => {
  await page.goto("/autenction?redirectTo=%2Fdashboard");
  await signInThroughForm(page, email, password);
  await expect(page.getByRole("heading", { name: messages.forbidden })).toBeVisible();

  expect(await giveRole(email, "admin")).toBe(true);
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("link", { name: messages.dashboard }).first()).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: messages.dashboard }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: messages.dashboard })).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await hydrated(page);
  await page.getByTestId("mobile-menu-toggle").click();
  const menu = page.getByTestId("mobile-menu");
  await expect(menu.getByRole("link", { name: messages.dashboard })).toBeVisible();
  await menu.getByRole("button", { name: messages.signOut }).click();
  await expect(menu).toBeHidden();
  await page.getByTestId("mobile-menu-toggle").click();
  await expect(menu.getByRole("link", { name: messages.signIn })).toBeVisible();
  await expect(menu.getByRole("link", { name: messages.dashboard })).toHaveCount(0);
  await giveRole(email, "user");
});

test("the form works before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: E2E_SERVERS.demo.url });
  const page = await context.newPage();
  await page.goto("/autenction");
  await signInThroughForm(page, email, "wrong-again");
  await expect(page.getByTestId("auth-error")).toContainText(authErrors["wrong-password"].catalogue);
  await signInThroughForm(page, email, password);
  await expect(page).toHaveURL(`${E2E_SERVERS.demo.url}/`);
  await expect(page.getByRole("banner").getByRole("button", { name: messages.signOut }).first()).toBeAttached();
  await context.close();
});
