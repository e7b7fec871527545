import type { Page } from "@playwright/test";
import { messages } from "../../app/lib/messages";
import { newsroomMessages } from "../../app/lib/newsroom-messages";
import { demoSettings } from "../../app/server/demo/demo-settings";
import { createAdmin, hydrated, queryOne } from "./support";
import { expect, test } from "./test";

/**
 * Collects every Content-Security-Policy violation the page reports, by event or on the console, and
 * every page the browser opened without a policy.
 */
async function watchCsp(page: Page): Promise<() => void> {
  const violations: string[] = [];
  await page.exposeFunction("reportCspViolation", (report: string) => violations.push(report));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = `${event.violatedDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}: ${event.sample}`;
      (window as unknown as { reportCspViolation: (report: string) => void }).reportCspViolation(report);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  page.on("response", (response) => {
    const isPage = response.request().resourceType() === "document" && response.frame() === page.mainFrame();
    if (isPage && !/script-src/.test(response.headers()["content-security-policy"] ?? ""))
      violations.push(`${response.url()}: no policy`);
  });
  return () => expect(violations, violations.join("\n")).toEqual([]);
}

/** Opens a page, waits for its islands or whole-document hydration, and returns its response. */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  await hydrated(page);
  return response;
}

test("every page type runs under the Content-Security-Policy, islands and whole-document pages alike", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const noViolations = await watchCsp(page);
  const withImages = queryOne<{ id: string }>(
    "select id from news where status = 'published' and images like '[\"/media/%' limit 1",
  );
  const withVideo = queryOne<{ id: string }>(
    "select id from news where status = 'published' and video like '%youtube%' limit 1",
  );
  const searchWord = queryOne<{ title: string }>(
    "select title from news where status = 'published' limit 1",
  ).title.split(" ")[0]!;

  for (const path of [
    "/",
    "/local",
    "/educatonal",
    "/advertisement",
    "/breaking",
    "/who",
    "/contact",
    "/privacy",
    "/development",
  ]) {
    await open(page, path);
  }
  await open(page, `/news/${withImages.id}`);
  const image = page.getByTestId("article-images").locator("img").first();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await open(page, `/news/${withVideo.id}`);
  // The video is a facade until played: the click brings the one frame the policy allows.
  await page.getByTestId("video-facade").click();
  await expect(page.getByTestId("article-video").locator("iframe")).toHaveAttribute(
    "src",
    /^https:\/\/www\.youtube-nocookie\.com\/embed\//,
  );
  await open(page, `/search?query=${encodeURIComponent(searchWord)}`);
  await expect(page.getByTestId("search-results").getByRole("listitem").first()).toBeVisible();
  await open(page, "/no-such-page");
  await expect(page).toHaveTitle(`${messages.pageNotFound} | ${demoSettings.name}`);
  await open(page, "/999999");
  await expect(page).toHaveTitle(`${messages.shortLinkNotFound} | ${demoSettings.name}`);

  // A cached page is served with a fresh policy: its islands still load and hydrate.
  await open(page, "/sports");
  const cached = await open(page, "/sports");
  expect(cached?.headers()["x-cache"]).toBe("HIT");
  const time = page.locator("time[title]").first();
  await expect(time).not.toHaveText((await time.getAttribute("title")) ?? "");

  // The whole-document pages: the sign-in form submits, then the dashboard and the edit form hydrate.
  const admin = await createAdmin("csp", "مدقق الأمان");
  await open(page, "/autenction?redirectTo=%2Fdashboard");
  await page.getByLabel(newsroomMessages.email).fill(admin.email);
  await page.getByLabel(newsroomMessages.password).fill(admin.password);
  await page.getByRole("button", { name: newsroomMessages.signInSubmit }).click();
  await expect(page.getByRole("heading", { level: 1, name: messages.dashboard })).toBeVisible();
  await hydrated(page);
  await open(page, `/edit-news/${withImages.id}`);
  await expect(page.getByRole("heading", { level: 1, name: newsroomMessages.editTitle })).toBeVisible();
  await open(page, `/news/${withImages.id}`);
  await expect(page.getByTestId("admin-tools")).toBeVisible();

  noViolations();
});
