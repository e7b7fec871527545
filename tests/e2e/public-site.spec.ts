import { categoryLabel } from "../../app/lib/categories";
import { messages } from "../../app/lib/messages";
import { E2E_SERVERS } from "./servers";
import { deletePublishedArticle, publishArticle } from "../../harness/articles";
import { adminApiSession, dialogAfter, hydrated, queryAll, queryOne, watchConsole } from "./support";
import { expect, test } from "./test";

type Row = { id: string; title: string; visits: number };
const SHOTS = "/tmp/i34-video-shots";

test.describe("home", () => {
  test("renders right-to-left with slider, every category section, latest and most read", async ({ page }) => {
    const noConsoleErrors = watchConsole(page);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    const slides = page.getByTestId("slider").locator('[aria-roledescription="slide"]');
    await expect(slides).toHaveCount(4);
    await expect(slides.first().locator("img")).toHaveAttribute("loading", "eager");
    for (const category of [
      "local",
      "international",
      "educational",
      "sports",
      "miscellaneous",
      "breaking",
      "advertisement",
    ] as const) {
      await expect(
        page.getByTestId(`section-${category}`).getByRole("heading", { name: categoryLabel(category), exact: true }),
      ).toBeVisible();
    }
    await expect(page.getByTestId("latest-news").getByRole("listitem")).toHaveCount(6);
    await expect(page.getByTestId("most-read").getByRole("listitem")).toHaveCount(4);
    const top = queryOne<Row>("select title from news where status = 'published' order by visits desc limit 1");
    await expect(page.getByTestId("most-read").getByRole("listitem").first()).toContainText(top.title);
    await expect(page.getByTestId("section-local").locator("img").first()).toHaveAttribute("loading", "lazy");
    await hydrated(page);
    // A card outside any island: the islands entry swaps its date for the relative time, the date kept as its title.
    const time = page.getByTestId("section-local").locator("time").first();
    await expect(time).toHaveAttribute("title", /\S/);
    await expect(time).not.toHaveText((await time.getAttribute("title"))!);
    noConsoleErrors();
  });

  test("the slider rotates and can be paused", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    const visible = page.getByTestId("slider").locator('[aria-roledescription="slide"]:visible');
    const first = await visible.getByRole("heading").textContent();
    await page.clock.runFor(4_100);
    await expect(visible.getByRole("heading")).not.toHaveText(first ?? "");
    await page.getByRole("button", { name: messages.pauseSlider }).click();
    const paused = await visible.getByRole("heading").textContent();
    await page.mouse.move(0, 0);
    await page.clock.runFor(10_000);
    await expect(visible.getByRole("heading")).toHaveText(paused ?? "");
  });

  test("counts the site visit once per browser", async ({ page }) => {
    const before = queryOne<{ total_visits: number }>("select total_visits from site_stats where id = 1").total_visits;
    // The site's total also takes views an earlier test's pages sent, written up to a second later: this browser's are counted by their requests.
    const visits: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/api/site-visit") visits.push(response.status());
    });
    await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.45" });
    const first = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/site-visit");
    await page.goto("/");
    await hydrated(page);
    expect((await first).status()).toBe(200);
    await expect
      .poll(() => queryOne<{ total_visits: number }>("select total_visits from site_stats").total_visits)
      .toBeGreaterThanOrEqual(before + 1);
    await page.reload();
    await hydrated(page);
    expect(await page.evaluate(() => localStorage.getItem("visitedSites"))).toBeTruthy();
    expect(visits, "one visit sent, on the first page only").toEqual([200]);
  });

  test("the home page asks /api/latest once a minute, not more (no second request to revalidate a stale copy)", async ({
    page,
  }) => {
    const asked: number[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/latest") asked.push(Date.now());
    });
    const editor = await adminApiSession("latest-once");
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    await page.clock.runFor(60_000);
    await expect.poll(() => asked.length).toBe(1);
    // A story published between two polls is in the next one's rows: no copy of the last poll stands in for it.
    const title = "خبر نُشر بين تحديثين";
    const id = await publishArticle(E2E_SERVERS.demo.url, editor, { title, content: "نص" });
    try {
      for (let minute = 2; minute <= 3; minute++) {
        await page.clock.runFor(60_000);
        await expect.poll(() => asked.length).toBeGreaterThanOrEqual(minute);
        await expect(page.getByTestId("latest-news")).toContainText(title);
      }
    } finally {
      await deletePublishedArticle(E2E_SERVERS.demo.url, editor, id);
    }
    // Whatever else was waiting to run has had its turn: still one request a minute.
    await page.clock.runFor(1_000);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(asked.length).toBe(3);
  });

  test("latest news refreshes every 60 seconds without a reload", async ({ page }) => {
    const editor = await adminApiSession("latest");
    await page.clock.install();
    await page.goto("/");
    await hydrated(page);
    const title = "خبر جديد يظهر دون إعادة تحميل الصفحة";
    const id = await publishArticle(E2E_SERVERS.demo.url, editor, { title, content: "نص" });
    try {
      await expect(page.getByTestId("latest-news")).not.toContainText(title);
      await page.clock.runFor(60_500);
      await expect(page.getByTestId("latest-news")).toContainText(title);
    } finally {
      await deletePublishedArticle(E2E_SERVERS.demo.url, editor, id);
    }
  });
});

test.describe("links to articles", () => {
  test("a card on home and an item of the ticker open the story at its readable address, with no redirect on the way", async ({
    page,
  }) => {
    const redirects: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 300 && response.status() < 400) redirects.push(`${response.status()} ${response.url()}`);
    });
    const readable = /\/news\/[^/]+\/[^/?#]+$/;
    await page.goto("/");
    await hydrated(page);
    await page.getByTestId("section-local").locator('a[href^="/news/"]').first().click();
    await expect(page).toHaveURL(readable);
    await page.goto("/");
    await hydrated(page);
    await page.getByTestId("breaking-ticker").getByRole("listitem").first().getByRole("link").click();
    await expect(page).toHaveURL(readable);
    expect(redirects).toEqual([]);
  });
});

test.describe("navigation", () => {
  test("highlights the active section and shows the scroll-to-top button after 300 px", async ({ page }) => {
    await page.goto("/sports");
    const nav = page.getByRole("navigation", { name: messages.mainNavigation });
    await expect(nav.getByRole("link", { name: categoryLabel("sports") })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: messages.home })).not.toHaveAttribute("aria-current", "page");
    await hydrated(page);
    await expect(page.getByRole("button", { name: messages.scrollToTop })).toHaveCount(0);
    await page.mouse.wheel(0, 900);
    await expect(page.getByRole("button", { name: messages.scrollToTop })).toBeVisible();
    await page.getByRole("button", { name: messages.scrollToTop }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("at 375 px the scroll-to-top button leaves the footer's copyright line uncovered", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight }));
    const button = page.getByRole("button", { name: messages.scrollToTop });
    await expect(button).toBeVisible();
    const copyright = page.getByRole("contentinfo").getByText(messages.copyright);
    const buttonBox = (await button.boundingBox())!;
    // The text's own lines, not its paragraph's box: each line's rectangle must miss the button.
    const lines = await copyright.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return [...range.getClientRects()].map(({ x, y, width, height }) => ({ x, y, width, height }));
    });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const apart =
        line.x + line.width <= buttonBox.x ||
        buttonBox.x + buttonBox.width <= line.x ||
        line.y + line.height <= buttonBox.y ||
        buttonBox.y + buttonBox.height <= line.y;
      expect(apart, JSON.stringify({ line, buttonBox })).toBe(true);
    }
  });

  test("mobile menu at 375 px: search box, Lebanon submenu, breaking, international, advertisements, sign-in", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await hydrated(page);
    await expect(page.getByRole("navigation", { name: messages.mainNavigation })).toBeHidden();
    await page.getByTestId("mobile-menu-toggle").click();
    const menu = page.getByTestId("mobile-menu");
    await expect(menu.getByRole("searchbox")).toBeVisible();
    await expect(menu.getByRole("link", { name: messages.signIn })).toBeVisible();
    for (const category of ["breaking", "international", "advertisement"] as const) {
      await expect(menu.getByRole("link", { name: categoryLabel(category) })).toBeVisible();
    }
    await expect(menu.getByRole("link", { name: categoryLabel("local") })).toBeHidden();
    await menu.getByText(messages.lebanonNews).click();
    for (const category of ["local", "sports", "educational", "miscellaneous"] as const) {
      await expect(menu.getByRole("link", { name: categoryLabel(category) })).toBeVisible();
    }
    await menu.getByRole("link", { name: categoryLabel("educational") }).click();
    await expect(page).toHaveURL(/\/educatonal$/);
    await expect(page.getByRole("heading", { level: 1, name: categoryLabel("educational") })).toBeVisible();
    await expect(menu).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("category pages", () => {
  test("show 6 items and 'المزيد' adds 6 more", async ({ page }) => {
    await page.goto("/local");
    await hydrated(page);
    const cards = page.getByTestId("category-list").getByRole("article");
    await expect(cards).toHaveCount(6);
    await page.getByRole("link", { name: messages.more }).click();
    await expect(cards).toHaveCount(9);
    await expect(page).toHaveURL(/\/local$/);
    await expect(page.getByRole("link", { name: messages.more })).toHaveCount(0);
  });

  test("the next page is a plain link that works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${E2E_SERVERS.demo.url}/local`);
    const more = page.getByRole("link", { name: messages.more });
    await expect(more).toHaveAttribute("href", "/local?page=2");
    await more.click();
    await expect(page).toHaveURL(/\/local\?page=2$/);
    await expect(page.getByTestId("category-list").getByRole("article")).toHaveCount(3);
    await context.close();
  });

  test("/educational answers 301 to /educatonal", async ({ request }) => {
    const response = await request.get("/educational", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/educatonal");
  });

  test("an empty site says 'لا توجد أخبار حالياً' and 'لا يوجد أخبار عاجلة حالياً'", async ({ page }) => {
    await page.goto(`${E2E_SERVERS.empty.url}/sports`);
    await expect(page.getByText(messages.noNews)).toBeVisible();
    await page.goto(`${E2E_SERVERS.empty.url}/breaking`);
    await expect(page.getByText(messages.noBreakingNews)).toBeVisible();
  });
});

test.describe("article page", () => {
  test("shows what a reader needs and counts one visit per browser", async ({ page }) => {
    const noConsoleErrors = watchConsole(page);
    const article = queryOne<Row>(
      "select id, title, visits from news where status = 'published' and category = 'local' and images != '[]' order by created_at desc limit 1",
    );
    await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.46" });
    await page.goto(`/news/${article.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(article.title);
    // The count as the page was rendered: a copy the page cache holds may be a few visits behind the row.
    const shown = (await page.getByTestId("visit-count").innerText()).replace(/[٠-٩]/g, (digit) =>
      String("٠١٢٣٤٥٦٧٨٩".indexOf(digit)),
    );
    expect(shown).toContain("زيارة");
    expect(Number(shown.replace(/\D/g, ""))).toBeLessThanOrEqual(article.visits);
    await expect(page.getByRole("link", { name: categoryLabel("local") }).first()).toBeVisible();
    expect(await page.getByTestId("article-content").locator("p").count()).toBeGreaterThan(1);
    await expect(page.getByTestId("related-news").getByRole("article")).toHaveCount(2);
    await expect(page.getByTestId("picks").getByRole("article")).toHaveCount(5);
    await expect(page.getByTestId("latest-news").getByRole("listitem")).toHaveCount(6);
    await expect(page.getByTestId("most-read").getByRole("listitem")).toHaveCount(4);
    await hydrated(page);
    await expect
      .poll(() => queryOne<Row>("select visits from news where id = ?", article.id).visits)
      .toBe(article.visits + 1);
    await page.reload();
    await hydrated(page);
    expect(queryOne<Row>("select visits from news where id = ?", article.id).visits).toBe(article.visits + 1);
    noConsoleErrors();
  });

  test("share uses the Web Share API with the short link, or tells the reader to copy", async ({ page }) => {
    const article = queryOne<Row & { content: string }>(
      "select id, title, content from news where status = 'published' limit 1",
    );
    const { short_id } = queryOne<{ short_id: string }>(
      "select short_id from short_links where news_id = ?",
      article.id,
    );
    await page.addInitScript(() => {
      (window as unknown as { shared: unknown[] }).shared = [];
      Object.defineProperty(navigator, "share", {
        configurable: true,
        value: async (data: unknown) => (window as unknown as { shared: unknown[] }).shared.push(data),
      });
    });
    await page.goto(`/news/${article.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: messages.share }).click();
    const shared = await page.evaluate(
      () => (window as unknown as { shared: { title: string; text: string; url: string }[] }).shared,
    );
    expect(shared[0]?.title).toBe(article.title);
    expect(shared[0]?.text).toBe(article.content.replace(/\s+/g, " ").trim().slice(0, 100));
    expect(shared[0]?.url).toBe(`${E2E_SERVERS.demo.url}/${short_id}`);

    await page.addInitScript(() => Object.defineProperty(navigator, "share", { configurable: true, value: undefined }));
    await page.reload();
    await hydrated(page);
    expect(await dialogAfter(page, () => page.getByRole("button", { name: messages.share }).click())).toBe(
      messages.shareUnsupported,
    );
  });

  test("a YouTube video is its demo poster and a play button, loading nothing from YouTube until clicked; the click plays it in the embed", async ({
    browser,
  }) => {
    const article = queryOne<Row & { video: string }>(
      "select id, title, video from news where is_video = 1 and status = 'published' limit 1",
    );
    const videoId = new URL(article.video).searchParams.get("v");
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: E2E_SERVERS.demo.url });
      const page = await context.newPage();
      const noConsoleErrors = watchConsole(page);
      const fromYoutube: string[] = [];
      page.on("request", (request) => {
        if (/youtube/.test(new URL(request.url()).hostname)) fromYoutube.push(request.url());
      });
      await page.goto(`/news/${article.id}`);
      await hydrated(page);
      const video = page.getByTestId("article-video");
      const play = video.getByRole("link", { name: `${messages.playVideo}: ${article.title}` });
      await expect(play).toHaveAttribute("href", `https://www.youtube.com/watch?v=${videoId}`);
      await expect(play).toContainText(messages.playVideo);
      await play.scrollIntoViewIfNeeded();
      const poster = play.locator("img");
      await expect
        .poll(() =>
          poster.evaluate(
            (img: HTMLImageElement) =>
              img.complete &&
              img.naturalWidth > 0 &&
              new URL(img.currentSrc).pathname.startsWith("/media/news-images/"),
          ),
        )
        .toBe(true);
      await expect(video.locator("iframe")).toHaveCount(0);
      await video.screenshot({ path: `${SHOTS}/facade-${width}.png` });
      await page.screenshot({ path: `${SHOTS}/facade-page-${width}.png` });
      expect(fromYoutube).toEqual([]);

      await play.click();
      await expect(video.locator("iframe")).toHaveAttribute(
        "src",
        `https://www.youtube-nocookie.com/embed/${videoId}?autoplay=1`,
      );
      await expect(play).toHaveCount(0);
      await expect
        .poll(() => fromYoutube.some((url) => url.startsWith(`https://www.youtube-nocookie.com/embed/${videoId}`)))
        .toBe(true);
      noConsoleErrors();
      await context.close();
    }
  });

  test("an unknown id is a 404 with 'الخبر غير موجود' and a link home", async ({ page }) => {
    const response = await page.goto("/news/no-such-article");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.newsNotFound })).toBeVisible();
    await page.getByRole("link", { name: messages.backHome }).click();
    await expect(page).toHaveURL(`${E2E_SERVERS.demo.url}/`);
  });
});

test.describe("short links, breaking, information and error pages", () => {
  test("a short link redirects with 301 to its article's readable address; an unknown one says 'الرابط غير موجود'", async ({
    page,
    request,
  }) => {
    const link = queryOne<{ short_id: string; news_id: string }>("select short_id, news_id from short_links limit 1");
    const response = await request.get(`/${link.short_id}`, { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toMatch(new RegExp(`^/news/${link.news_id}/[^/]+$`));
    await page.goto(`/${link.short_id}`);
    await expect(page).toHaveURL(new RegExp(`/news/${link.news_id}/[^/]+$`));

    const missing = await page.goto("/100001");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.shortLinkNotFound })).toBeVisible();
    await expect(page.getByRole("link", { name: messages.backHome })).toBeVisible();
  });

  test("/breaking lists breaking news newest first", async ({ page }) => {
    await page.goto("/breaking");
    const titles = await page.getByTestId("breaking-list").getByRole("heading").allTextContents();
    const expected = queryAll<{ title: string }>(
      "select title from news where category = 'breaking' and status = 'published' order by created_at desc",
    ).map((row) => row.title);
    expect(titles).toEqual(expected);
  });

  for (const [path, title] of [
    ["/who", messages.whoTitle],
    ["/contact", messages.contactTitle],
    ["/privacy", messages.privacyTitle],
    ["/development", messages.developmentTitle],
  ] as const) {
    test(`${path} is a real page`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      expect(await page.locator("article p").count()).toBeGreaterThan(2);
    });
  }

  test("anything else is an Arabic 404 page", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.pageNotFound })).toBeVisible();
    const word = await page.goto("/not-a-short-link");
    expect(word?.status()).toBe(404);
  });
});
