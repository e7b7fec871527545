import { describe, expect, it } from "vitest";
import { deviceOf, isCrawler, sourceOf, taggedLink } from "./reader-classes";

const site = "akhbar.example";
const from = (referrer: string, utm = "") => sourceOf({ referrer, utm }, site);

describe("sourceOf", () => {
  it("reads our share tags and utm_source first", () => {
    expect(from("", "whatsapp")).toBe("whatsapp");
    expect(from("https://www.facebook.com/", "telegram")).toBe("telegram");
    expect(from("", "push")).toBe("push");
    expect(from("", "Newsletter")).toBe("newsletter");
    expect(from("", "mailchimp")).toBe("other-site");
  });

  it("classes referrers by host", () => {
    expect(from("https://l.facebook.com/l.php?u=x")).toBe("facebook");
    expect(from("https://m.facebook.com/")).toBe("facebook");
    expect(from("https://www.google.com/")).toBe("google-search");
    expect(from("https://www.google.com.lb/")).toBe("google-search");
    expect(from("https://news.google.com/articles/x")).toBe("google-news");
    expect(from("android-app://com.google.android.googlequicksearchbox/")).toBe("google-news");
    expect(from("https://t.co/abc")).toBe("x");
    expect(from("https://l.instagram.com/")).toBe("instagram");
    expect(from("https://t.me/channel")).toBe("telegram");
    expect(from("https://akhbar.example/local")).toBe("internal");
    expect(from("https://another-paper.example/")).toBe("other-site");
    expect(from("")).toBe("direct");
    expect(from("not a url")).toBe("direct");
  });
});

describe("deviceOf and isCrawler", () => {
  it("tells phones, tablets and desktops apart", () => {
    expect(deviceOf("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")).toBe("phone");
    expect(deviceOf("Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36")).toBe("phone");
    expect(deviceOf("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)")).toBe("tablet");
    expect(deviceOf("Mozilla/5.0 (Linux; Android 14; SM-X710) Chrome/126.0 Safari/537.36")).toBe("tablet");
    expect(deviceOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0")).toBe("desktop");
  });

  it("knows crawlers and previewers", () => {
    expect(isCrawler("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isCrawler("facebookexternalhit/1.1")).toBe(true);
    expect(isCrawler("")).toBe(true);
    // Scripts and headless browsers are no readers.
    expect(isCrawler("python-requests/2.31.0")).toBe(true);
    expect(
      isCrawler(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
      ),
    ).toBe(true);
    expect(isCrawler("Go-http-client/1.1")).toBe(true);
    expect(isCrawler("Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0")).toBe(false);
  });
});

it("taggedLink adds utm_source to a link with or without a query", () => {
  expect(taggedLink("https://akhbar.example/123456", "whatsapp")).toBe(
    "https://akhbar.example/123456?utm_source=whatsapp",
  );
  expect(taggedLink("/news/a?x=1", "push")).toBe("/news/a?x=1&utm_source=push");
});
