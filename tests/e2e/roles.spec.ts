import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Role } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import { E2E_SERVERS, FILES_DIR } from "./servers";
import { articleIdByTitle, createMember, hydrated, readSiteDatabase, signedInState, fillBody } from "./support";
import { expect, test } from "./test";

const site = E2E_SERVERS.demo;
const SHOTS = path.resolve(".tmp/e2e-files/roles");

const statusOf = (id: string) =>
  readSiteDatabase(
    site,
    async (db) => (await db.selectFrom("news").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status,
  );

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  );
}

test.describe.configure({ mode: "serial" });

const states: Partial<Record<Role, string>> = {};

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const people: [Role, string][] = [
    ["author", "مراسلة عكار"],
    ["editor", "رئيس التحرير"],
    ["user", "قارئ"],
  ];
  for (const [role, name] of people)
    states[role] = await signedInState(
      await createMember(role, name, site),
      path.join(FILES_DIR, `roles-${role}.json`),
      site,
    );
});

for (const width of [375, 1280]) {
  test(`at ${width} px: an author submits, an editor sends back with a note, the author fixes and resubmits, the editor publishes; a reader gets 403`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const open = async (role: Role) => {
      const context = await browser.newContext({
        baseURL: site.url,
        storageState: states[role],
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      page.on("dialog", (dialog) => void dialog.accept());
      return page;
    };
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: path.join(SHOTS, `${width}-${name}.png`), fullPage: true });
    const title = `مهرجان الزيتون في عكار ${width}`;
    const note = "أضيفي اسم الجهة المنظمة وموعد المهرجان.";

    const author = await open("author");
    await author.goto("/");
    // Under 768 px the account links are in the menu.
    if (width < 768) await author.getByLabel(messages.openMenu).click();
    await author.getByRole("link", { name: messages.dashboard }).click();
    await expect(author.getByRole("heading", { level: 1, name: messages.dashboard })).toBeVisible();
    await hydrated(author);
    await expect(author.getByLabel(new RegExp(newsroomMessages.statusPublishNow))).toHaveCount(0);
    await author.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
    await fillBody(author, "يقام المهرجان في ساحة البلدة.");
    await author.getByLabel(new RegExp(newsroomMessages.statusSubmitReview)).check();
    await author.getByRole("button", { name: conflictMessages.submitReview }).click();
    await author.waitForURL(/\/dashboard\?saved=/);
    const id = await articleIdByTitle(site, title);
    expect(await statusOf(id)).toBe("review");

    const editor = await open("editor");
    await editor.goto("/dashboard");
    const queue = editor.getByTestId("review-queue");
    await expect(queue).toContainText(title);
    await expect(queue).toContainText("مراسلة عكار");
    await noSidewaysScroll(editor);
    await shot(editor, "editor-dashboard");
    await queue.getByRole("link", { name: title }).click();
    await editor.getByLabel(newsroomMessages.reviewNote).fill(note);
    await shot(editor, "editor-review");
    await editor.getByRole("button", { name: newsroomMessages.sendBack }).click();
    await expect(editor.getByRole("status")).toContainText(newsroomMessages.sentBack);
    expect(await statusOf(id)).toBe("draft");

    await author.goto("/dashboard");
    await expect(author.getByTestId("sent-back")).toContainText(note);
    await noSidewaysScroll(author);
    await shot(author, "author-dashboard");
    await author.getByTestId("sent-back").getByRole("link", { name: title }).click();
    await expect(author.getByTestId("editor-note")).toContainText(note);
    await hydrated(author);
    await noSidewaysScroll(author);
    await shot(author, "author-edit");
    await fillBody(author, "يقام المهرجان في ساحة البلدة يوم الأحد بتنظيم من البلدية.");
    await author.getByLabel(new RegExp(newsroomMessages.statusSubmitReview)).check();
    await author.getByRole("button", { name: conflictMessages.submitReview }).click();
    await author.waitForURL((url) => url.pathname === "/dashboard");
    expect(await statusOf(id)).toBe("review");
    await expect(author.getByTestId("sent-back")).toHaveCount(0);

    await editor.goto("/dashboard");
    await editor.getByTestId("review-queue").getByRole("link", { name: title }).click();
    await hydrated(editor);
    await expect(editor.getByTestId("editor-note")).toHaveCount(0);
    await editor.getByLabel(new RegExp(newsroomMessages.statusPublishNow)).check();
    await editor.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
    await expect(editor.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(editor.getByTestId("admin-tools")).toBeVisible();
    expect(await statusOf(id)).toBe("published");

    const reader = await open("user");
    const response = await reader.goto("/dashboard");
    expect(response?.status()).toBe(403);
    await expect(reader.getByRole("heading", { name: messages.forbidden })).toBeVisible();
    await noSidewaysScroll(reader);
    await shot(reader, "reader-403");
    for (const page of [author, editor, reader]) await page.context().close();
  });
}
