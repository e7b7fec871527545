import { queryValue } from "./share-links";
import { describe, expect, it } from "vitest";
import { formatDateTime, formatRelative } from "./dates";
import { imageSources } from "./images";
import { paragraphs, truncate } from "./news";
import { pageFromUrl } from "./pagination";
import { absoluteUrl } from "./seo";
import { videoSource, youtubeEmbedUrl, youtubeId, youtubeWatchUrl } from "./video";

describe("dates", () => {
  it("formats in ar-LB with Levantine months in Beirut time", () => {
    expect(formatDateTime("2026-01-15T10:00:00Z")).toBe("١٥ كانون الثاني ٢٠٢٦ في ١٢:٠٠ م");
  });

  it("gives relative times in seconds, minutes, hours and days", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    expect(formatRelative(ago(30), now)).toBe("قبل ٣٠ ثانية");
    expect(formatRelative(ago(5 * 60), now)).toBe("قبل ٥ دقائق");
    expect(formatRelative(ago(3 * 3600), now)).toBe("قبل ٣ ساعات");
    expect(formatRelative(ago(4 * 86400), now)).toBe("قبل ٤ أيام");
  });
});

describe("video sources", () => {
  it("recognises YouTube URLs in their usual shapes", () => {
    for (const url of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://m.youtube.com/shorts/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
    ]) {
      expect(youtubeId(url)).toBe("dQw4w9WgXcQ");
    }
    expect(videoSource("https://youtu.be/dQw4w9WgXcQ")).toEqual({ kind: "youtube", id: "dQw4w9WgXcQ" });
    expect(youtubeEmbedUrl("dQw4w9WgXcQ")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(youtubeWatchUrl("dQw4w9WgXcQ")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });

  it("plays local and http(s) files, and refuses other schemes", () => {
    expect(videoSource("/media/news-videos/1-a.mp4")).toEqual({ kind: "file", url: "/media/news-videos/1-a.mp4" });
    expect(videoSource("javascript:alert(1)")).toBeNull();
    expect(videoSource("data:video/mp4;base64,AAAA")).toBeNull();
    expect(videoSource(null)).toBeNull();
  });
});

describe("images", () => {
  it("derives the srcset of stored images only", () => {
    expect(imageSources("/media/news-images/1-a.webp")).toEqual({
      src: "/media/news-images/1-a-800w.webp",
      srcSet:
        "/media/news-images/1-a-400w.webp 400w, /media/news-images/1-a-800w.webp 800w, /media/news-images/1-a-1200w.webp 1200w",
    });
    expect(imageSources("https://example.com/a.jpg")).toEqual({ src: "https://example.com/a.jpg" });
  });
});

describe("text helpers", () => {
  it("keeps paragraphs and truncates on the flattened text", () => {
    expect(paragraphs("أ\n\nب\n ج \n\n\n")).toEqual(["أ", "ب", "ج"]);
    expect(truncate("كلمة  كلمة\nكلمة", 9)).toBe("كلمة كلمة…");
    expect(truncate("قصير", 10)).toBe("قصير");
  });

  it("reads ?page= and falls back to 1 for anything odd", () => {
    const page = (q: string) => pageFromUrl(new URL(`http://x/local${q}`));
    expect(page("")).toBe(1);
    expect(page("?page=3")).toBe(3);
    for (const odd of ["?page=0", "?page=-2", "?page=abc", "?page=1e3", "?page=99999999"]) expect(page(odd)).toBe(1);
  });
});

describe("absoluteUrl", () => {
  it("puts site paths under the base URL and leaves absolute URLs alone", () => {
    expect(absoluteUrl("https://akhbar.example", "/news/abc")).toBe("https://akhbar.example/news/abc");
    expect(absoluteUrl("https://akhbar.example", "news/abc")).toBe("https://akhbar.example/news/abc");
    expect(absoluteUrl("https://akhbar.example", "https://cdn.example/a.jpg")).toBe("https://cdn.example/a.jpg");
  });
});

describe("queryValue", () => {
  it("escapes ASCII and keeps Arabic letters, and the browser's URL parser reads back the same text", () => {
    const text = "عاجل: حادث & سير #1 100%";
    expect(queryValue(text)).toBe("عاجل%3A%20حادث%20%26%20سير%20%231%20100%25");
    expect(
      new URL(
        `https://x.com/intent/post?text=${queryValue(text)}&url=${queryValue("http://a.b/1?x=y")}`,
      ).searchParams.get("text"),
    ).toBe(text);
  });
});

describe("the article form's optional addresses", () => {
  it("read an absent field as none (null), never as an empty address", async () => {
    const { articleFields } = await import("./article-schema");
    expect(articleFields.shape.imageUrl.parse(undefined)).toBeNull();
    expect(articleFields.shape.videoUrl.parse(undefined)).toBeNull();
    expect(articleFields.shape.imageUrl.parse("  ")).toBeNull();
  });
});
