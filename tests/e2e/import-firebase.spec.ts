import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { FIXTURE, makeFirebaseFixtures } from "../../scripts/make-firebase-fixtures";
import { createPostgresDatabase } from "../../harness/postgres";
import { spawnServer } from "../../harness/test-server";
import { SPEC_PORT_BASE, untilReady } from "./servers";
import { hydrated } from "./support";
import { expect, test } from "./test";

/*
 * The Firebase import (decision 024) in the browser: a site made by `npm run import:firebase` from the fixtures, on its own server
 * (the shared demo sites keep their counts), on each engine under test.
 */

const ENGINES = process.env.E2E_POSTGRES === "1" ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

type ImportedSite = { url: string; stop: () => Promise<void> };

async function importedSite(engine: "sqlite" | "postgres", port: number): Promise<ImportedSite> {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-import-e2e-"));
  const fixtures = await makeFirebaseFixtures(path.join(dir, "export"));
  const postgres = engine === "postgres" ? await createPostgresDatabase("akhbar_import_") : undefined;
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: url,
    DATABASE_URL: postgres?.url ?? path.join(dir, "akhbar.db"),
    MEDIA_DIR: path.join(dir, "media"),
    AUTH_SECRET: "import-e2e-secret-import-e2e-secret-0123",
    DEMO_CONTENT: "off",
    LOG_LEVEL: "warn",
  };
  execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/import-firebase.ts",
      "--firestore",
      fixtures.firestoreA,
      "--auth",
      fixtures.auth,
      "--hash-config",
      fixtures.hashConfig,
      "--storage",
      fixtures.storage,
    ],
    { env: { ...process.env, ...env }, encoding: "utf8" },
  );
  const server = spawnServer(env);
  const stop = async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  // A server that never got ready is stopped all the same, not left holding its port.
  await untilReady(url, server).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, stop };
}

async function signIn(page: Page, site: ImportedSite, email: string, password: string): Promise<void> {
  await page.goto(`${site.url}/autenction`);
  await hydrated(page);
  await page.getByLabel(newsroomMessages.email).fill(email);
  await page.getByLabel(newsroomMessages.password).fill(password);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  await expect(page.getByRole("banner").getByRole("button", { name: messages.signOut })).toBeVisible();
}

for (const [index, engine] of ENGINES.entries()) {
  test.describe(`a site imported from Firebase (${engine})`, () => {
    test.describe.configure({ mode: "serial", timeout: 120_000 });
    let site: ImportedSite;
    test.beforeAll(async () => {
      // The fixtures, the import CLI and a server start, beside the other engine's in the other worker: minutes on a busy machine.
      test.setTimeout(240_000);
      site = await importedSite(engine, SPEC_PORT_BASE + index);
    });
    test.afterAll(async () => site?.stop());

    test("/news/{firestoreId} shows the article, its images served from our storage", async ({ page }) => {
      await page.goto(`${site.url}/news/${FIXTURE.withImages.id}`);
      await expect(page.getByRole("heading", { level: 1, name: FIXTURE.withImages.title })).toBeVisible();
      await expect(page.getByText("تفاصيل الخبر في فقرته الأولى").first()).toBeVisible();
      const images = page.locator("article img[src^='/media/news-images/']");
      await expect(images.first()).toBeVisible();
      await images.first().scrollIntoViewIfNeeded();
      await expect
        .poll(() => images.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      const src = await images.first().getAttribute("src");
      const response = await page.request.get(`${site.url}${src}`);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("image/webp");
    });

    test("/{shortId} shared before the move still leads to its article", async ({ page }) => {
      await page.goto(`${site.url}/${FIXTURE.withImages.shortId}`);
      await expect(page).toHaveURL(`${site.url}/news/${FIXTURE.withImages.id}`);
      await expect(page.getByRole("heading", { level: 1, name: FIXTURE.withImages.title })).toBeVisible();
    });

    test("an imported reader signs in with the original password, and again after the rehash", async ({ page }) => {
      await signIn(page, site, FIXTURE.reader.email, FIXTURE.reader.password);
      await page.getByRole("banner").getByRole("button", { name: messages.signOut }).click();
      await expect(page.getByRole("banner").getByRole("link", { name: messages.signIn })).toBeVisible();
      await signIn(page, site, FIXTURE.reader.email, FIXTURE.reader.password);
    });

    test("the educatonal spelling lands in the educational section", async ({ page }) => {
      await page.goto(`${site.url}/educatonal`);
      await expect(page.getByRole("link", { name: FIXTURE.educatonal.title }).first()).toBeVisible();
    });
  });
}
