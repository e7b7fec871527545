import { messages } from "../../app/lib/messages";
import { E2E_SERVERS } from "./servers";
import { dialogAfter, hydrated, queryOne } from "./support";
import { expect, test } from "./test";

test("each share link opens the network's share page with the article's short link, tagged where no referrer is sent", async ({
  page,
  context,
}) => {
  // Nothing leaves this machine: the networks' pages are answered locally.
  await context.route(/^https:\/\/(wa\.me|www\.facebook\.com|t\.me|x\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<html></html>" }),
  );
  const article = queryOne<{ id: string; title: string }>(
    "select id, title from news where status = 'published' and category = 'local' limit 1",
  );
  const { short_id } = queryOne<{ short_id: string }>("select short_id from short_links where news_id = ?", article.id);
  const shortUrl = `${E2E_SERVERS.demo.url}/${short_id}`;
  await page.goto(`/news/${article.id}`);
  await hydrated(page);
  const bar = page.getByTestId("share-bar");

  const expected: [string, (url: URL) => void][] = [
    [
      "WhatsApp",
      (url) => {
        expect(url.origin).toBe("https://wa.me");
        expect(url.searchParams.get("text")).toBe(`${article.title} ${shortUrl}?utm_source=wa`);
      },
    ],
    [
      "Facebook",
      (url) => {
        expect(`${url.origin}${url.pathname}`).toBe("https://www.facebook.com/sharer/sharer.php");
        expect(url.searchParams.get("u")).toBe(shortUrl);
      },
    ],
    [
      "Telegram",
      (url) => {
        expect(`${url.origin}${url.pathname}`).toBe("https://t.me/share/url");
        expect(url.searchParams.get("url")).toBe(`${shortUrl}?utm_source=tg`);
        expect(url.searchParams.get("text")).toBe(article.title);
      },
    ],
    [
      "X",
      (url) => {
        expect(`${url.origin}${url.pathname}`).toBe("https://x.com/intent/post");
        expect(url.searchParams.get("url")).toBe(shortUrl);
        expect(url.searchParams.get("text")).toBe(article.title);
      },
    ],
  ];
  for (const [network, check] of expected) {
    const popupOpened = page.waitForEvent("popup");
    await bar.getByRole("link", { name: `${messages.shareOn} ${network}` }).click();
    const popup = await popupOpened;
    check(new URL(popup.url()));
    await popup.close();
  }

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  expect(await dialogAfter(page, () => bar.getByRole("button", { name: messages.copyLink }).click())).toBe(
    messages.shortLinkCopied,
  );
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);
});
